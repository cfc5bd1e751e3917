'use strict';
// hessian.js (npm `hessian.js`) as a peer of the Rust server.
//
// Driven by crates/hessian-rpc/tests/peers.rs, which installs the pinned library (`npm ci` in
// interop/peers) and runs this script against a Rust server on loopback. hessian.js is a codec
// without an HTTP client, so the call envelopes are framed here around what its encoder writes
// (Hessian 2: `H 2 0 C method argc args`; Hessian 1: `c 1 0 m len method args z`), POSTed with
// Node's http module, and the reply's value is read with its decoder.
//
// Commands (VERSION is 1 or 2):
//   w URL VERSION        W1 getItems(n) for several n and W2 exchange(Order), every reply checked
//                        against the workload's definition (docs/workloads.md); prints `ok ...`.
//   replies URL VERSION  stdin: method names. Prints one JSON line per method, {method, value} in
//                        the peers' plain view (dump()), or {method, error}.
//   args URL VERSION     stdin: JSON lines {method, value} with the value in typed JSON
//                        (docs/typed-json.md). Prints {method, result}, or {method, unsupported}
//                        when hessian.js cannot express the value.
//   encode VERSION       stdin: JSON lines {name, value} (typed JSON). Prints {name, hex}: the
//                        bytes hessian.js's encoder writes for the value.
// Required as a module (by node_negotiating_client.js), it exports the W2 values and checks.

const http = require('http');
const hessian = require('hessian.js');
const Long = require('long');

class Unsupported extends Error {}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(url, body) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent,
      headers: { 'Content-Type': 'x-application/hessian', 'Content-Length': body.length },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        if (res.statusCode !== 200) {
          reject(new Error('HTTP ' + res.statusCode + ': ' + buf.toString('latin1').slice(0, 200)));
        } else {
          resolve(buf);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function encoder(version) {
  return version === '2' ? new hessian.EncoderV2() : new hessian.EncoderV1();
}

// One call message: the envelope around the values hessian.js's encoder writes.
function callBytes(version, method, args) {
  const enc = encoder(version);
  for (const a of args) markMapTypes(enc, a);
  if (version === '2') {
    enc.write(method);
    enc.write(args.length);
    for (const a of args) enc.write(a);
    return Buffer.concat([Buffer.from([0x48, 2, 0, 0x43]), enc.get()]);
  }
  for (const a of args) enc.write(a);
  const name = Buffer.from(method, 'utf8');
  const head = Buffer.from([0x63, 1, 0, 0x6d, name.length >> 8, name.length & 0xff]);
  return Buffer.concat([head, name, enc.get(), Buffer.from('z')]);
}

// hessian.js writes `{$class: T, $: {...}}` as an object unless T is one of its encoder's map
// types: typed maps built by build() are registered there.
function markMapTypes(enc, v, seen = new Set()) {
  if (v && typeof v === 'object' && !seen.has(v)) {
    seen.add(v);
    if (v.__mapType) enc.mapTypes[v.$class] = true;
    const inner = v.$ !== undefined && v.$class !== undefined ? v.$ : v;
    if (inner instanceof Map) {
      inner.forEach((x, k) => { markMapTypes(enc, k, seen); markMapTypes(enc, x, seen); });
    } else if (Array.isArray(inner)) {
      inner.forEach((x) => markMapTypes(enc, x, seen));
    } else if (inner && typeof inner === 'object' && !(inner instanceof Date) && !Buffer.isBuffer(inner)) {
      Object.values(inner).forEach((x) => markMapTypes(enc, x, seen));
    }
  }
}

function readReply(version, buf) {
  if (version === '2') {
    if (buf.length < 4 || buf[0] !== 0x48 || buf[1] !== 2 || buf[2] !== 0) {
      throw new Error('not a Hessian 2 reply: ' + buf.slice(0, 8).toString('hex'));
    }
    const body = new hessian.DecoderV2(buf.slice(4));
    if (buf[3] === 0x46) throw new Error('fault: ' + JSON.stringify(dump(body.read(true))));
    if (buf[3] !== 0x52) throw new Error('not a reply: ' + buf.slice(0, 8).toString('hex'));
    return body.read(true);
  }
  if (buf.length < 4 || buf[0] !== 0x72 || buf[1] !== 1 || buf[2] !== 0) {
    throw new Error('not a Hessian 1 reply: ' + buf.slice(0, 8).toString('hex'));
  }
  if (buf[3] === 0x66) throw new Error('fault: ' + buf.slice(4).toString('latin1'));
  return new hessian.DecoderV1(buf.slice(3)).read(true);
}

async function call(url, version, method, args) {
  return readReply(version, await post(url, callBytes(version, method, args)));
}

// The plain view of a value hessian.js decoded with its types (`read(true)`).
function dump(v, stack = []) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? v : { double: String(v) };
  if (Long.isLong(v)) return v.toString();
  if (v instanceof Date) return { date: v.getTime() };
  if (Buffer.isBuffer(v)) return { binary: v.toString('hex') };
  if (stack.includes(v)) return { cycle: true };
  const inner = stack.concat([v]);
  if (Array.isArray(v)) return v.map((x) => dump(x, inner));
  if (v instanceof Map) return { map: [...v.entries()].map(([k, x]) => [dump(k, inner), dump(x, inner)]) };
  if (typeof v.$class === 'string' && '$' in v) {
    const t = v.$class;
    const x = v.$;
    if (x === null || typeof x !== 'object' || x instanceof Date || Buffer.isBuffer(x) || Long.isLong(x)) {
      return dump(x, inner); // a typed scalar: {$class: 'int', $: 1}
    }
    if (stack.includes(x)) return { cycle: true };
    const inner2 = inner.concat([x]);
    if (Array.isArray(x)) return x.map((y) => dump(y, inner2));
    if (x instanceof Map) return { map: [...x.entries()].map(([k, y]) => [dump(k, inner2), dump(y, inner2)]) };
    if (t === 'java.util.HashMap' || t === 'java.util.Map') {
      return { map: Object.entries(x).map(([k, y]) => [k, dump(y, inner2)]) };
    }
    return { object: t, fields: Object.entries(x).map(([k, y]) => [k, dump(y, inner2)]) };
  }
  return { map: Object.entries(v).map(([k, x]) => [k, dump(x, inner)]) };
}

function entriesOf(m) {
  return Array.isArray(m) ? m : Object.entries(m);
}

// A hessian.js value from typed JSON. `{"ref": n}` is the n-th list, map or object built so far
// (Hessian's numbering): shared and circular values are the same JavaScript object, which the
// encoder then writes as a reference itself.
function build(j, table = []) {
  if (j === null || typeof j === 'boolean' || typeof j === 'string') return j;
  if (typeof j === 'number') {
    return Number.isInteger(j) ? { $class: 'int', $: j } : { $class: 'double', $: j };
  }
  if (Array.isArray(j)) {
    const items = [];
    table.push(items);
    for (const x of j) items.push(build(x, table));
    return items;
  }
  if ('int' in j) return { $class: 'int', $: Number(j.int) };
  if ('long' in j) {
    const n = typeof j.long === 'string' ? Long.fromString(j.long) : j.long;
    return { $class: 'long', $: n };
  }
  if ('double' in j) {
    const d = j.double;
    if (typeof d === 'string' && d.startsWith('0x')) throw new Unsupported('a NaN payload');
    return { $class: 'double', $: Number(d) };
  }
  if ('string' in j) return j.string;
  if ('date' in j) return new Date(typeof j.date === 'string' && j.date.includes('T') ? j.date : Number(j.date));
  if ('binary' in j) return Buffer.from(j.binary, 'base64');
  if ('list' in j) {
    if (j.fixed === false) throw new Unsupported('hessian.js writes every list with its length');
    const items = [];
    const v = j.type ? { $class: j.type, $: items } : items;
    table.push(v);
    for (const x of j.list) items.push(build(x, table));
    return v;
  }
  if ('map' in j) {
    const m = new Map();
    const v = j.type ? { $class: j.type, $: m, __mapType: true } : m;
    table.push(v);
    for (const [k, x] of entriesOf(j.map)) {
      const key = build(k, table);
      m.set(key, build(x, table));
    }
    return v;
  }
  if ('object' in j) {
    const fields = {};
    const v = { $class: j.object, $: fields };
    table.push(v);
    for (const [k, x] of entriesOf(j.fields || {})) fields[k] = build(x, table);
    return v;
  }
  if ('ref' in j) {
    if (j.ref >= table.length) throw new Error('reference ' + j.ref + ' out of range');
    return table[j.ref];
  }
  // a plain JSON object: an untyped map with string keys, in document order
  const m = new Map();
  table.push(m);
  for (const [k, x] of Object.entries(j)) m.set(k, build(x, table));
  return m;
}

function check(what, got, want) {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) {
    console.log('MISMATCH ' + what + ': got ' + g + ', want ' + w);
    process.exit(1);
  }
}

function pad40(prefix, i) {
  const s = prefix + String(i).padStart(10, '0');
  return s + '.'.repeat(40 - s.length);
}

function fieldsOf(o) {
  return o && o.$class !== undefined ? o.$ : o;
}

function checkItems(list, n) {
  const items = fieldsOf(list);
  check('W1 length', items.length, n);
  items.forEach((it, i) => {
    check('W1 type', it.$class, 'org.example.remoting.Item');
    const f = it.$;
    const plain = {};
    for (const [k, v] of Object.entries(f)) plain[k] = dump(v);
    const created = 1200000000000 + i * 1000;
    // Caucho's field order: java.lang and primitive fields first, then the others (the dates)
    check('W1 fields', Object.keys(plain), ['name', 'street', 'city', 'comment', 'id', 'count', 'price', 'ratio', 'created', 'updated']);
    check('W1 name', plain.name, pad40('name-', i));
    check('W1 street', plain.street, pad40('street-', i));
    check('W1 city', plain.city, pad40('city-', i));
    check('W1 comment', plain.comment, pad40('comment-', i));
    check('W1 created', plain.created, { date: created });
    check('W1 updated', plain.updated, { date: created + 86400000 });
    check('W1 id', plain.id, 10000000000 + i);
    check('W1 count', plain.count, i);
    check('W1 price', fieldsOf(f.price), i * 1.25 + 0.1);
    check('W1 ratio', Math.fround(fieldsOf(f.ratio)), Math.fround((i % 100) / 7.0));
  });
}

const T = 'com.squarespace.hopper.types.';
const money = (cents) => ({ $class: T + 'Money', $: { cents: { $class: 'int', $: cents }, currency: 'EUR' } });
// fields in Caucho's order (as in checkItems): the int first
const line = (k) => ({
  $class: T + 'LineItem',
  $: {
    quantity: { $class: 'int', $: k },
    product: { $class: T + 'Product', $: { sku: 'SKU-000' + k, name: 'Product ' + k, price: money(k * 1000) } },
    total: money(k * k * 1000),
  },
});
function order(id, street, city, zip, ks, total, placed) {
  return {
    $class: T + 'Order',
    $: {
      id: { $class: 'long', $: id },
      customer: {
        $class: T + 'Customer',
        $: {
          id: { $class: 'long', $: 42 },
          name: 'Ada Lovelace',
          email: 'ada@example.org',
          address: { $class: T + 'Address', $: { street, city, zip, country: 'GB' } },
        },
      },
      lines: ks.map(line),
      total: money(total),
      placed: new Date(placed),
    },
  };
}

// W2's request and reply (docs/workloads.md).
const w2Request = () => order(1001, '12 Analytical Row', 'London', 'N1 9GU', [1, 2, 3], 14000, 1200000000000);
const w2Reply = () => order(1002, '1 Difference Engine Way', 'Cambridge', 'CB2 1TN', [4, 5], 41000, 1200000060000);

async function workloads(url, version) {
  for (const n of [0, 1, 10, 100, 1000]) {
    checkItems(await call(url, version, 'getItems', [{ $class: 'int', $: n }]), n);
    console.log('ok W1 getItems(' + n + ')');
  }
  const got = await call(url, version, 'exchange', [w2Request()]);
  check('W2 reply', dump(got), dump(w2Reply()));
  console.log('ok W2 exchange');
}

async function lines() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8').split('\n').filter((l) => l.trim());
}

async function replies(url, version) {
  for (const method of (await lines()).flatMap((l) => l.split(/\s+/)).filter(Boolean)) {
    try {
      console.log(JSON.stringify({ method, value: dump(await call(url, version, method, [])) }));
    } catch (e) {
      console.log(JSON.stringify({ method, error: String(e && e.message || e) }));
    }
  }
}

async function args(url, version) {
  for (const text of await lines()) {
    const c = JSON.parse(text);
    let value;
    try {
      value = build(c.value);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      console.log(JSON.stringify({ method: c.method, unsupported: e.message }));
      continue;
    }
    try {
      console.log(JSON.stringify({ method: c.method, result: dump(await call(url, version, c.method, [value])) }));
    } catch (e) {
      console.log(JSON.stringify({ method: c.method, error: String(e && e.message || e) }));
    }
  }
}

async function encode(version) {
  for (const text of await lines()) {
    const c = JSON.parse(text);
    try {
      const value = build(c.value);
      const enc = encoder(version);
      markMapTypes(enc, value);
      console.log(JSON.stringify({ name: c.name, hex: enc.write(value).get().toString('hex') }));
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      console.log(JSON.stringify({ name: c.name, unsupported: e.message }));
    }
  }
}

async function main() {
  const [cmd, a, b] = process.argv.slice(2);
  if (cmd === 'w') await workloads(a, b);
  else if (cmd === 'replies') await replies(a, b);
  else if (cmd === 'args') await args(a, b);
  else if (cmd === 'encode') await encode(a);
  else throw new Error('unknown command ' + cmd);
  agent.destroy();
}

// The workloads and the plain view, for node_negotiating_client.js.
module.exports = { w2Request, w2Reply, checkItems, check, dump };

if (require.main === module) {
  main().catch((e) => {
    console.error(e && e.stack || e);
    process.exit(1);
  });
}
