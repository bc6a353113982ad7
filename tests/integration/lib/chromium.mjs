// Headless Debian Chromium driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe: fd 3 in, fd 4 out, messages separated by NUL), so
// no npm package and no WebSocket are needed. Used by the book's check and the
// service page's check.
//
//   const chrome = launchChromium();          // throws nothing; failures reject
//   const page = await chrome.newPage({ width: 1100, height: 1400 });
//   await page.goto(url);  await page.evaluate('document.title');
//   await page.screenshot('out.png');  await chrome.close();
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';

export const CHROMIUM = process.env.CHROMIUM || 'chromium';

export function launchChromium({ timeoutMs = 30_000 } = {}) {
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bx-chromium-'));
  const child = spawn(CHROMIUM, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-dev-shm-usage', '--hide-scrollbars', '--mute-audio',
    `--user-data-dir=${userDir}`, '--remote-debugging-pipe', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });

  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const pending = new Map();
  const waiters = [];
  const handlers = [];  // { method, handler }: every event of that name
  let failure = null;  // set once Chromium cannot be started or has exited
  const failAll = (error) => {
    failure = failure || error;
    for (const { reject } of pending.values()) reject(failure);
    pending.clear();
    for (const w of waiters.splice(0)) w.reject(failure);
  };
  child.on('error', (e) => failAll(new Error(`cannot start ${CHROMIUM} (${e.code || e.message}); install it with: make -f book/book.mk book-test-setup`)));
  const exited = new Promise((resolve) => child.once('exit', (code) => {
    failAll(new Error(`chromium exited (${code}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    resolve();
  }));

  let buf = Buffer.alloc(0);
  child.stdio[4].on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    let z;
    while ((z = buf.indexOf(0)) >= 0) {
      const msg = JSON.parse(buf.subarray(0, z).toString('utf8'));
      buf = buf.subarray(z + 1);
      if (msg.id && pending.has(msg.id)) {
        const { resolve, reject } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(`${msg.error.message} (${msg.error.code})`)); else resolve(msg.result);
      } else if (msg.method) {
        for (const h of handlers) if (h.method === msg.method) h.handler(msg.params, msg.sessionId);
        for (const w of [...waiters]) {
          if (w.method === msg.method && (!w.sessionId || w.sessionId === msg.sessionId)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(msg.params);
          }
        }
      }
    }
  });
  child.stdio[3].on('error', () => {});  // a write after exit: reported through failAll

  let nextId = 1;
  function send(method, params = {}, sessionId) {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    child.stdio[3].write(JSON.stringify(msg) + '\0');
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // unref: a pending timer must not keep the process alive after the work is done.
      setTimeout(() => { if (pending.delete(id)) reject(new Error(`timeout: ${method}`)); }, timeoutMs).unref();
    });
  }
  function waitFor(method, sessionId, ms = timeoutMs) {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      const w = { method, sessionId, resolve, reject };
      waiters.push(w);
      setTimeout(() => { const i = waiters.indexOf(w); if (i >= 0) { waiters.splice(i, 1); reject(new Error(`timeout waiting for ${method}`)); } }, ms).unref();
    });
  }

  function onEvent(method, handler) { handlers.push({ method, handler }); }

  async function newPage({ width = 1100, height = 1400 } = {}) {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    await send('Page.enable', {}, sessionId);
    await send('Runtime.enable', {}, sessionId);
    await send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, sessionId);
    return {
      sessionId,
      async goto(url) {
        const loaded = waitFor('Page.loadEventFired', sessionId);
        const nav = await send('Page.navigate', { url }, sessionId);
        if (nav.errorText) throw new Error(`${url}: ${nav.errorText}`);
        await loaded;
      },
      // The expression's value (JSON-serialisable); awaits a promise result.
      async evaluate(expression) {
        const r = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId);
        if (r.exceptionDetails) throw new Error(`evaluate: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text}`);
        return r.result.value;
      },
      async screenshot(file) {
        const { data } = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false }, sessionId);
        fs.writeFileSync(file, Buffer.from(data, 'base64'));
      },
    };
  }

  // Kills Chromium and removes its profile once it has exited (it may still be
  // writing for a moment after the kill; a second at most).
  async function close() {
    await send('Browser.close').catch(() => {});
    try { child.kill('SIGKILL'); } catch {}
    await Promise.race([exited, new Promise((r) => setTimeout(r, 1000))]);
    try { fs.rmSync(userDir, { recursive: true, force: true }); } catch {}
  }

  return { send, waitFor, onEvent, newPage, close, stderr: () => stderr };
}
