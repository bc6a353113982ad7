#!/usr/bin/env node
// Serves a wasi:http component locally, the way Spin runs it: a fresh
// component instance for every request.
//
//   node common/host/serve.mjs <component.wasm> [--port P] [--host H] [--with wasmtime|jco]
//
// --with wasmtime (the default, or BX_SERVE_WITH): `wasmtime serve`, the
// engine Spin embeds, configured as Spin configures it
// (common/host/wasmtime-serve.toml: Cranelift, pooling allocator,
// copy-on-write memory images, epoch interruption with a 30 s deadline, a
// 128 MiB cap on linear memory), one instance per request. The CLI is the
// pinned PyPI wheel in the build tree (make setup-wasmtime).
// --with jco: `jco serve --isolate-requests instance`: the component
// transpiled to JavaScript and run by Node's V8.
//
// --port 0 (or none) picks a free port. When the server accepts connections
// this prints one line on stdout:
//   serving <component.wasm> at http://127.0.0.1:P/ with <wasmtime|jco> (pid N, server pid M)
// and then relays the component's stderr ([timing] lines). SIGINT (Ctrl-C) or
// SIGTERM stops it: the server runs in its own process group (jco starts a
// second node process), and we kill that whole group, then exit.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const jcoJs = path.join(here, '../node/node_modules/@bytecodealliance/jco/dist/jco.js');
// The wheel's entry point execs the wasmtime binary: the server process is wasmtime itself.
const wasmtimeCli = process.env.BX_WASMTIME_CLI ?? path.join(here, '../../build/venv/bin/wasmtime');
const wasmtimeConfig = path.join(here, 'wasmtime-serve.toml');
const SERVE_HOSTS = ['wasmtime', 'jco'];

function parseArgs(argv) {
  const opts = { port: 0, host: '127.0.0.1', component: null, with: process.env.BX_SERVE_WITH || 'wasmtime' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--host') opts.host = argv[++i];
    else if (a === '--with') opts.with = argv[++i];
    else if (!opts.component) opts.component = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!opts.component) throw new Error('usage: serve.mjs <component.wasm> [--port P] [--host H] [--with wasmtime|jco]');
  if (!SERVE_HOSTS.includes(opts.with)) throw new Error(`--with ${opts.with}: give ${SERVE_HOSTS.join(' or ')}`);
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error('bad --port');
  return opts;
}

// Asks the kernel for a free port by binding port 0, then releases it.
function freePort(host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.component)) throw new Error(`${opts.component} not found: run make build-wasm`);
  const port = opts.port || (await freePort(opts.host));

  let child;
  let jcoDir = null;
  if (opts.with === 'wasmtime') {
    if (!existsSync(wasmtimeCli)) throw new Error(`${wasmtimeCli} not found: run make setup`);
    // BX_SERVE_MAX_MEMORY=N lowers the engine's cap on linear memory (the limits test's mutant).
    const cap = process.env.BX_SERVE_MAX_MEMORY ? ['-W', `max-memory-size=${process.env.BX_SERVE_MAX_MEMORY}`] : [];
    child = spawn(wasmtimeCli, [
      'serve', '--config', wasmtimeConfig, ...cap, '--addr', `${opts.host}:${port}`,
      // Spin: a fresh instance for every request (wasmtime's default for a WASIp2 component, said anyway).
      '--max-instance-reuse-count', '1', '--no-logging-prefix', opts.component,
    ], {
      detached: true,
      // A pipe of its own, relayed: stderr inherited from a Node parent is non-blocking, and
      // wasmtime aborts when a long error report (a guest that timed out) meets a full pipe.
      stdio: ['ignore', 'ignore', 'pipe'],
      // Traps are reported without Rust's stack backtraces of the host.
      env: { ...process.env, RUST_BACKTRACE: '0', RUST_LIB_BACKTRACE: '0' },
    });
    child.stderr.pipe(process.stderr);
  } else {
    if (!existsSync(jcoJs)) throw new Error(`${jcoJs} not found: run make setup`);
    // jco transpiles the component into this directory; ours, so we can remove it
    // after killing jco (its own clean-up never runs when it is killed).
    jcoDir = mkdtempSync(path.join(os.tmpdir(), 'bx-serve-'));
    child = spawn(process.execPath, [
      jcoJs, 'serve', '--port', String(port), '--host', opts.host,
      '--isolate-requests', 'instance', '--jco-dir', jcoDir, opts.component,
    ], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
  }

  let stopping = false;
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
    // If jco ignores SIGTERM, make sure it goes anyway.
    setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch {} }, 3000).unref();
    if (signal) process.exitCode = 0;
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  child.on('exit', (code, signal) => {
    try { process.kill(-child.pid, 'SIGKILL'); } catch {}  // stragglers in the group
    if (jcoDir) rmSync(jcoDir, { recursive: true, force: true });
    if (!stopping) {
      console.error(`serve: ${opts.with} exited (${signal ?? code})`);
      process.exitCode = code || 1;
    }
    process.exit();
  });

  // Ready when the port accepts connections (jco needs a few seconds to
  // transpile and start, wasmtime to compile).
  const deadline = Date.now() + 120_000;
  while (!(await canConnect(opts.host, port))) {
    if (stopping) return;
    if (Date.now() > deadline) { console.error('serve: server did not start'); stop(); return; }
    await sleep(100);
  }
  console.log(`serving ${opts.component} at http://${opts.host}:${port}/ with ${opts.with} (pid ${process.pid}, server pid ${child.pid})`);
}

main().catch((e) => { console.error(`serve: ${e.message}`); process.exit(2); });
