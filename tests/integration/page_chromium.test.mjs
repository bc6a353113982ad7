// The page GET / serves, in headless Chromium against `make serve` (the latest
// stage): type a text with personal data, click, and see the entities
// highlighted, the redacted text, the entity list and the Server-Timing bars;
// texts that look like HTML must show exactly as typed. Saves a screenshot
// (BX_PAGE_SCREENSHOT, default build/page/screenshot.png).
//
// BX_PAGE_MUTATE=innerhtml serves a page.js that writes the redacted text with
// innerHTML (intercepted through the DevTools Fetch domain, the component is
// unchanged): the "as typed" checks must then fail.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, wasmBuild, stageNames } from './lib/env.mjs';
import { startServer } from './lib/server.mjs';
import { launchChromium } from './lib/chromium.mjs';
import { git } from './redact_lib.mjs';

const stage = stageNames().at(-1);
const component = path.join(wasmBuild, 'stages', stage, 'component.wasm');
const screenshot = process.env.BX_PAGE_SCREENSHOT || path.join(root, 'build/page/screenshot.png');
const mutate = process.env.BX_PAGE_MUTATE || '';

let server, chrome, page;
before(async () => {
  server = await startServer(component);
  chrome = launchChromium({ timeoutMs: 60_000 });
  page = await chrome.newPage({ width: 1000, height: 1480 });
  if (mutate === 'innerhtml') {
    await chrome.send('Fetch.enable', { patterns: [{ urlPattern: '*/page.js' }] }, page.sessionId);
    chrome.onEvent('Fetch.requestPaused', async ({ requestId }, sessionId) => {
      const original = await (await fetch(`${server.url}/page.js`)).text();
      const mutant = original.replace("$('redacted').textContent = answer.redacted;", "$('redacted').innerHTML = answer.redacted;");
      assert.notEqual(mutant, original, 'the mutation applies');
      await chrome.send('Fetch.fulfillRequest', {
        requestId, responseCode: 200,
        responseHeaders: [{ name: 'content-type', value: 'text/javascript; charset=utf-8' }],
        body: Buffer.from(mutant).toString('base64'),
      }, sessionId);
    });
  }
  await page.goto(`${server.url}/`);
});
after(async () => {
  if (chrome) await chrome.close();
  if (server) await server.stop();
});

// Types `text`, clicks Redact, waits for the answer; returns what the page shows.
async function redactInPage(text) {
  return page.evaluate(`(async () => {
    const $ = (id) => document.getElementById(id);
    $('text').value = ${JSON.stringify(text)};
    $('result').hidden = true;
    $('status').textContent = '';
    $('redact').click();
    const until = Date.now() + 60000;
    while ($('redact').disabled || $('status').textContent === '' || $('status').textContent.startsWith('Redacting')) {
      if (Date.now() > until) throw new Error('no answer within 60 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const marked = $('marked').cloneNode(true);
    marked.querySelectorAll('.tag').forEach((t) => t.remove());
    return {
      status: $('status').textContent,
      error: $('status').className === 'error',
      shown: !$('result').hidden,
      markedText: marked.textContent,
      marks: [...$('marked').querySelectorAll('mark.entity')].map((m) => ({ label: m.dataset.label, text: m.firstChild.textContent })),
      redacted: $('redacted').textContent,
      rows: $('entities').tBodies[0].rows.length,
      bars: [...document.querySelectorAll('#timing .bar')].map((b) => ({ phase: b.dataset.phase, width: b.getBoundingClientRect().width })),
      elements: document.querySelectorAll('#result img, #result script, #result b, #result iframe').length,
      xss: window.__bx_xss ?? null,
    };
  })()`);
}

test('the page loads its own script and style under the Content-Security-Policy', async () => {
  const r = await page.evaluate(`({
    title: document.title,
    scripts: [...document.scripts].map((s) => new URL(s.src).pathname),
    styled: getComputedStyle(document.querySelector('button')).borderRadius,
  })`);
  assert.match(r.title, /bitexact/);
  assert.deepEqual(r.scripts, ['/page.js']);
  assert.equal(r.styled, '4px');  // page.css applied
  const res = await fetch(`${server.url}/`);
  assert.match(res.headers.get('content-security-policy'), /script-src 'self'/);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
});

test('a text with personal data: highlighted entities, redacted text, list and timing bars', async () => {
  const text = 'Hello, I am Anna Weber. Write to anna.weber@example.com or call 030 1234567.';
  const r = await redactInPage(text);
  assert.equal(r.error, false, r.status);
  assert.ok(r.shown);
  assert.equal(r.markedText, text, 'the highlighted text is the typed text');
  const labels = new Set(r.marks.map((m) => m.label));
  assert.ok(labels.has('EMAIL'), `an EMAIL is marked (${JSON.stringify(r.marks)})`);
  assert.ok(r.marks.some((m) => m.text === 'anna.weber@example.com'));
  assert.equal(r.rows, r.marks.length, 'one row per entity');
  assert.ok(r.redacted.includes('[EMAIL]') && !r.redacted.includes('anna.weber@example.com'), r.redacted);
  const phases = r.bars.map((b) => b.phase);
  for (const phase of ['tok_load', 'encode', 'forward', 'total', 'round trip']) assert.ok(phases.includes(phase), `bar ${phase} (${phases})`);
  assert.ok(r.bars.every((b) => b.width >= 1), 'every bar is drawn');
  fs.mkdirSync(path.dirname(screenshot), { recursive: true });
  await page.screenshot(screenshot);
  assert.ok(fs.statSync(screenshot).size > 10_000, `screenshot ${screenshot}`);
  // Beside it, where it was taken: the bars show times of this machine.
  fs.writeFileSync(screenshot.replace(/\.png$/, '') + '.json', JSON.stringify({
    what: `the page GET / of ${stage} after one POST /redact in headless Chromium (tests/integration/page_chromium.test.mjs)`,
    stage, text, date: new Date().toISOString(), commit: git('rev-parse', 'HEAD'),
    dirty: (git('status', '--porcelain', '--', 'stages', 'common') ?? '') !== '',
    runtime: `jco serve (common/host/serve.mjs), Node ${process.version}`, chromium: await chrome.send('Browser.getVersion').then((v) => v.product),
    machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, loadavg_1m: os.loadavg()[0] },
  }, null, 2) + '\n');
});

for (const text of [
  'Call Anna <script>window.__bx_xss = 1</script> today.',
  'Anna Weber <img src=x onerror="window.__bx_xss = 2"> wrote &lt;b&gt;bold&lt;/b&gt; and <b>this</b>.',
]) {
  test(`shown as typed, never as HTML: ${text}`, async () => {
    const r = await redactInPage(text);
    assert.equal(r.error, false, r.status);
    assert.equal(r.markedText, text);
    assert.equal(r.elements, 0, 'no element made from the text');
    assert.equal(r.xss, null, 'no script ran');
    // The redacted text shown is the service's, character for character.
    const answer = await (await fetch(`${server.url}/redact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) })).json();
    assert.equal(r.redacted, answer.redacted);
  });
}

test('an error from the service is shown as a message', async () => {
  const r = await redactInPage('x'.repeat(64 * 1024 + 1));  // over kMaxTextBytes
  assert.equal(r.error, true);
  assert.match(r.status, /^413: /);
});
