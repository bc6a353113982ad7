#!/usr/bin/env node
// make demo: serve a component, print the URL of its page (GET /: try it in a
// browser), POST each sample text to /redact, print the answers. Then, when a
// person is at the terminal (stdin and stdout are TTYs), the server stays up
// for the page until Ctrl-C (at most DEMO_KEEP_SECONDS, default 600); otherwise
// (CI, a pipe) it stops at once.
//
//   node common/host/demo.mjs <component.wasm> [texts.txt]
//
// The host is serve.mjs's default, wasmtime serve, unless BX_SERVE_WITH=jco.
//
// texts.txt holds one sample per line (blank lines and lines starting with #
// are skipped); without it a few built-in lines are used.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [component, textsFile] = process.argv.slice(2);

const builtIn = [
  'Call Anna Weber on 030 1234567 before Friday.',
  'Jean Dupont habite au 12 rue de la Paix, 75002 Paris.',
  'Please refund card 4111 1111 1111 1111 to IBAN DE89 3704 0044 0532 0130 00.',
  'The server at 192.168.10.4 was reset by m.rossi@example.com.',
];
const texts = textsFile && existsSync(textsFile)
  ? readFileSync(textsFile, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'))
  : builtIn;

// The server, in its own process group so one kill stops all of it.
const server = spawn(process.execPath, [path.join(here, 'serve.mjs'), component, '--port', '0'], {
  detached: true, stdio: ['ignore', 'pipe', 'inherit'],
});
const stopServer = () => { try { process.kill(-server.pid, 'SIGTERM'); } catch {} };
process.on('exit', stopServer);
process.on('SIGINT', () => process.exit(130));

const { url, host } = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/at (http:\/\/\S+?)\/? with (\S+) \(pid/);
    if (m) resolve({ url: m[1], host: m[2] });
  });
  server.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready`)));
});
console.log(`demo: try it in a browser: ${url}/`);
console.log(`demo: ${component} served by ${host}, POST ${url}/redact`);

let failures = 0;
for (const text of texts) {
  const t0 = performance.now();
  const res = await fetch(`${url}/redact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  const body = await res.text();
  const ms = (performance.now() - t0).toFixed(0);
  console.log(`\n> ${text}\n< ${res.status} (${ms} ms)`);
  try { console.log(JSON.stringify(JSON.parse(body), null, 2)); } catch { console.log(body); }
  const timing = res.headers.get('server-timing');
  if (timing) console.log(`server-timing: ${timing}`);
  if (!res.ok) failures++;
}
process.exitCode = failures ? 1 : 0;
const keepSeconds = Number(process.env.DEMO_KEEP_SECONDS ?? 600);
if (process.stdin.isTTY && process.stdout.isTTY && keepSeconds > 0) {
  console.log(`\ndemo: the page stays up at ${url}/ : open it in a browser; Ctrl-C stops (or ${keepSeconds} s)`);
  setTimeout(() => { stopServer(); process.exit(); }, keepSeconds * 1000);
} else {
  stopServer();
}
