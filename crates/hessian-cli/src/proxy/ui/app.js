// The browser view of `hessian proxy`: polls /api/calls for the calls after the last one seen,
// lists them, filters them, and shows the selected one's request and reply side by side.
// Everything from the wire is shown with textContent (never as markup).
'use strict';

const KEEP = 1000;
const calls = [];
let last = 0;
let selected = null;

const $ = (id) => document.getElementById(id);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function argsText(c) {
  const j = c.request && c.request.json;
  if (j && Array.isArray(j.args)) return j.args.map((a) => JSON.stringify(a)).join(', ');
  if (c.request && c.request.error) return 'undecoded: ' + c.request.error;
  return '';
}

function matches(c) {
  const m = $('f-method').value.trim();
  if (m && !String(c.method || c.target || '').includes(m)) return false;
  const s = $('f-status').value;
  const ok = c.status !== null && c.status >= 200 && c.status < 300;
  if (s === '2xx' && !ok) return false;
  if (s === 'other' && ok) return false;
  if ((s === 'reply' || s === 'fault' || s === 'error') && c.outcome !== s) return false;
  const d = $('f-dialect').value;
  if (d && (c.dialect || '-') !== d) return false;
  return true;
}

function render() {
  const body = $('calls');
  body.replaceChildren();
  for (const c of calls) {
    if (!matches(c)) continue;
    const tr = el('tr', null, 'call ' + c.outcome + (c.id === selected ? ' selected' : ''));
    tr.dataset.id = String(c.id);
    const time = new Date(c.time_ms).toLocaleTimeString();
    const cells = [c.id, time, c.dialect || '-', c.method || c.http_method + ' ' + c.target, argsText(c),
      c.status === null ? '---' : c.status, c.outcome, c.request.bytes + ' B', c.reply.bytes + ' B', c.latency_ms];
    cells.forEach((v, i) => tr.appendChild(el('td', v, ['id', 'time', 'dialect', 'method', 'args', 'status',
      'outcome', 'req', 'rep', 'ms'][i])));
    tr.addEventListener('click', () => select(c.id));
    body.appendChild(tr);
  }
}

function side(container, title, part, c) {
  container.replaceChildren();
  container.appendChild(el('h2', title));
  let sizes = part.bytes + ' bytes';
  if (part.truncated) sizes += ' (only the first ' + part.captured + ' kept)';
  if (title === 'Reply') sizes += ', ' + c.latency_ms + ' ms, status ' + (c.status === null ? 'none' : c.status);
  container.appendChild(el('div', sizes, 'sizes'));
  if (part.type_map) container.appendChild(el('div', 'Hessian 2.1, type map ' + part.type_map, 'sizes'));
  if (part.error) {
    container.appendChild(el('div', 'not decoded' + (part.offset === null ? '' : ' at offset ' + part.offset) +
      ': ' + part.error, 'err'));
    if (part.hex) container.appendChild(el('pre', part.hex.replace(/(..)/g, '$1 ').trim(), 'hex'));
  }
  if (title === 'Reply' && c.error) container.appendChild(el('div', c.error, 'err'));
  if (c.view_note) container.appendChild(el('div', c.view_note, 'err'));
  if (part.json !== undefined) container.appendChild(el('pre', JSON.stringify(part.json, null, 2), 'json'));
  if (part.dump) container.appendChild(el('pre', part.dump, 'dump'));
  if (part.head) container.appendChild(el('pre', part.head, 'head'));
}

function select(id) {
  selected = id;
  const c = calls.find((x) => x.id === id);
  if (!c) return;
  side($('request-side'), 'Request', c.request, c);
  side($('reply-side'), 'Reply', c.reply, c);
  render();
}

async function poll() {
  let full = false;
  try {
    const r = await fetch('/api/calls?after=' + last, { cache: 'no-store' });
    if (!r.ok) throw new Error('HTTP ' + r.status);
    const got = await r.json();
    full = got.length >= 200;
    for (const c of got) {
      calls.push(c);
      last = Math.max(last, c.id);
    }
    while (calls.length > KEEP) calls.shift();
    if (got.length) {
      if (selected === null) select(calls[calls.length - 1].id);
      else render();
    }
    $('state').textContent = 'live: ' + calls.length + ' calls';
  } catch (e) {
    $('state').textContent = 'disconnected (' + e.message + '), retrying';
  }
  setTimeout(poll, full ? 0 : 1000);
}

for (const id of ['f-method', 'f-status', 'f-dialect']) $(id).addEventListener('input', render);
poll();
