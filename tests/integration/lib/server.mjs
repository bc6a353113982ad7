// Starts common/host/serve.mjs on a free loopback port and stops it by its
// process id, for tests that need a live server. `with` picks the host
// (wasmtime or jco); without it, BX_SERVE_WITH, else jco.
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { root } from './env.mjs';

export const serveHost = () => process.env.BX_SERVE_WITH || 'jco';

// What a results file records as the host that served: the engine, its version and its settings.
export function hostRecord(host = serveHost()) {
  if (host === 'wasmtime') {
    const cli = process.env.BX_WASMTIME_CLI ?? path.join(root, 'build/venv/bin/wasmtime');
    const version = execFileSync(cli, ['--version'], { encoding: 'utf8' }).trim();
    return `wasmtime serve (${version}; common/host/wasmtime-serve.toml: Spin's settings, one instance per request)`;
  }
  return `jco serve --isolate-requests instance (common/host/serve.mjs), Node ${process.version}, V8 ${process.versions.v8}`;
}

export async function startServer(component, { timeoutMs = 120_000, with: host = serveHost() } = {}) {
  const child = spawn(process.execPath, [path.join(root, 'common/host/serve.mjs'), component, '--port', '0', '--with', host], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let serverPid = null;
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server not ready after ${timeoutMs} ms\n${stderr}`)), timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/at (http:\/\/[^\s]+?)\/? with \S+ \(pid (\d+), server pid (\d+)\)/);
      if (m) { clearTimeout(timer); serverPid = Number(m[3]); resolve(m[1]); }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${signal ?? code}) before it was ready\n${stderr}`));
    });
  });

  return {
    url,
    host,
    pid: child.pid,
    serverPid: () => serverPid,  // the wasmtime or jco process itself
    log: () => stderr,
    // SIGTERM to serve.mjs's own pid; it kills jco's process group and exits.
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      process.kill(child.pid, 'SIGTERM');
      return exited;
    },
  };
}

export function portAccepts(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port) });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}
