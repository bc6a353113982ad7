// The page's only script (served as /page.js; the Content-Security-Policy
// forbids inline code). User text is only ever placed with textContent and
// text nodes, never parsed as HTML, so "<script>" in a text is just text.
'use strict';

const $ = (id) => document.getElementById(id);

// "a;dur=1.5, b;dur=2;desc=\"x, y\"" -> [{name, dur, desc}]. Splits on commas
// outside quoted strings, as RFC 8941 lists are written.
function parseServerTiming(header) {
  const entries = [];
  let part = '', quoted = false;
  const flush = () => {
    const fields = part.split(';').map((f) => f.trim());
    const entry = { name: fields[0], dur: NaN, desc: '' };
    for (const f of fields.slice(1)) {
      const eq = f.indexOf('=');
      const key = f.slice(0, eq), value = f.slice(eq + 1);
      if (key === 'dur') entry.dur = Number(value);
      if (key === 'desc') entry.desc = value.replace(/^"|"$/g, '');
    }
    if (entry.name) entries.push(entry);
    part = '';
  };
  for (const ch of header || '') {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) flush(); else part += ch;
  }
  flush();
  return entries;
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  if (className) td.className = className;
}

// The text with each entity wrapped in <mark>; offsets count code points.
function showMarked(text, entities, hues) {
  const target = $('marked');
  target.replaceChildren();
  const points = Array.from(text);
  let at = 0;
  for (const e of [...entities].sort((a, b) => a.start - b.start)) {
    if (e.start < at) continue;  // overlapping spans never come from the service; skip defensively
    target.append(document.createTextNode(points.slice(at, e.start).join('')));
    const mark = document.createElement('mark');
    mark.className = `entity ${hues.get(e.label)}`;
    mark.title = `${e.label}, score ${e.score.toFixed(2)}`;
    mark.dataset.label = e.label;
    mark.append(document.createTextNode(points.slice(e.start, e.end).join('')));
    const tag = document.createElement('span');
    tag.className = 'tag';
    tag.textContent = e.label;
    mark.append(tag);
    target.append(mark);
    at = e.end;
  }
  target.append(document.createTextNode(points.slice(at).join('')));
}

function showEntities(entities, hues) {
  const body = $('entities').tBodies[0];
  body.replaceChildren();
  for (const e of entities) {
    const row = body.insertRow();
    cell(row, e.label, hues.get(e.label));
    cell(row, e.text);
    cell(row, `${e.start}–${e.end}`, 'num');
    cell(row, e.score.toFixed(2), 'num');
  }
}

function showTiming(entries, clientMs) {
  const box = $('timing');
  box.replaceChildren();
  const rows = [...entries.filter((e) => Number.isFinite(e.dur)), { name: 'round trip', dur: clientMs, client: true }];
  const longest = Math.max(...rows.map((r) => r.dur), 1e-9);
  for (const r of rows) {
    const name = document.createElement('span');
    name.textContent = r.desc ? `${r.name} (${r.desc})` : r.name;
    const track = document.createElement('div');
    const bar = document.createElement('div');
    bar.className = r.client ? 'bar client' : 'bar';
    bar.dataset.phase = r.name;
    bar.style.width = `${(100 * r.dur) / longest}%`;  // CSSOM, not an inline style attribute
    track.append(bar);
    const ms = document.createElement('span');
    ms.className = 'ms';
    ms.textContent = `${r.dur.toFixed(1)} ms`;
    box.append(name, track, ms);
  }
}

async function redact() {
  const button = $('redact'), status = $('status');
  const text = $('text').value;
  button.disabled = true;
  status.className = '';
  status.textContent = 'Redacting…';
  try {
    const started = performance.now();
    const response = await fetch('/redact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    const answer = await response.json();
    const clientMs = performance.now() - started;
    if (!response.ok) {
      const message = answer && answer.error ? answer.error.message : response.statusText;
      throw new Error(`${response.status}: ${message}`);
    }
    const hues = new Map();
    for (const e of answer.entities) if (!hues.has(e.label)) hues.set(e.label, `hue${hues.size % 8}`);
    showMarked(text, answer.entities, hues);
    $('redacted').textContent = answer.redacted;
    showEntities(answer.entities, hues);
    showTiming(parseServerTiming(response.headers.get('server-timing')), clientMs);
    $('result').hidden = false;
    status.textContent = `${answer.entities.length} entit${answer.entities.length === 1 ? 'y' : 'ies'}`;
  } catch (error) {
    status.className = 'error';
    status.textContent = error.message;
  } finally {
    button.disabled = false;
  }
}

$('redact').addEventListener('click', redact);
