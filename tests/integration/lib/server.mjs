// Starts common/host/serve.mjs on a free loopback port and stops it by its
// process id, for tests that need a live server.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { root } from './env.mjs';

export async function startServer(component, { timeoutMs = 120_000 } = {}) {
  const child = spawn(process.execPath, [path.join(root, 'common/host/serve.mjs'), component, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server not ready after ${timeoutMs} ms\n${stderr}`)), timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/at (http:\/\/[^\s]+?)\/? \(pid (\d+)\)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${signal ?? code}) before it was ready\n${stderr}`));
    });
  });

  return {
    url,
    pid: child.pid,
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
