'use strict';
// A Hessian 2.1 client (the type negotiation extension, docs/negotiation.md) on hessian.js,
// written from the specification: a third implementation beside the Rust and Java ones.
//
// hessian.js encodes and decodes Hessian 2 values; everything of the extension is here: the
// offer (Hessian-Type-Maps: 1), the canonical encoding and digest of a map (section 2.1, from
// the names alone), the map of the plain call it wrote (its class definitions in the order it
// wrote them, 2.2), learning a map the server lists in Hessian-Type-Map (4.1), referring calls
// (H 02 01 T 30 <digest>, class numbers from the map, 4.2), reply maps and referring replies
// (Hessian-Reply-Map, 5), and the resend after a refusal recognised by its content (6). Two
// hessian.js internals are used: the encoder's class table (`_classRefs`, `_classRefFields`),
// read to learn what a call defined and seeded with a map's classes for a referring call, and
// the decoder's (`classes`), read likewise and seeded for a referring reply.
//
// Driven by crates/hessian-rpc/tests/negotiation_peers.rs. Commands:
//   vectors FILE          checks docs/negotiation-vectors.json: every map's canonical bytes and
//                         digest, the map each plain message defines, each referring message
//                         against its plain one, the W2 call bytes this client writes, and the
//                         refusal; prints `ok map NAME` and `ok message NAME` lines.
//   w2 URL CALLS          CALLS calls of W2 exchange(Order) to URL, every reply checked.
//   restart URL CALLS     as w2, but after CALLS/2 calls prints PAUSE and waits for a line on
//                         stdin (while the test restarts the server).
//   alternate URL ROUNDS  ROUNDS times exchange(Order) then getItems(10), every reply checked.
// The calling commands end with one JSON line of counters (`summary`). REPROBE_AFTER_MS (default
// five minutes) is how long an endpoint that ignored the offer is called plain before the next
// call offers the extension again.

const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const hessian = require('hessian.js');
const { w2Request, w2Reply, checkItems, check, dump } = require('./node_peer.js');

// ---- canonical encoding and digest (section 2.1) ----

// The bytes of UTF-16 units from..to of s: each unit alone in 1 to 3 bytes (CESU-8).
function putUnits(out, s, from, to) {
  for (let i = from; i < to; i++) {
    const u = s.charCodeAt(i);
    if (u < 0x80) out.push(u);
    else if (u < 0x800) out.push(0xc0 | (u >> 6), 0x80 | (u & 0x3f));
    else out.push(0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f));
  }
}

function putString(out, s) {
  let off = 0;
  while (s.length - off > 0x8000) {
    let len = 0x8000;
    const last = s.charCodeAt(off + len - 1);
    if (last >= 0xd800 && last <= 0xdbff) len--; // no chunk ends inside a surrogate pair
    out.push(0x52, len >> 8, len & 0xff);
    putUnits(out, s, off, off + len);
    off += len;
  }
  const n = s.length - off;
  if (n <= 31) out.push(n);
  else if (n <= 1023) out.push(0x30 + (n >> 8), n & 0xff);
  else out.push(0x53, n >> 8, n & 0xff);
  putUnits(out, s, off, s.length);
}

function putCount(out, n) {
  if (n <= 47) out.push(0x90 + n);
  else if (n <= 2047) out.push(0xc8 + (n >> 8), n & 0xff);
  else if (n <= 262143) out.push(0xd4 + (n >> 16), (n >> 8) & 0xff, n & 0xff);
  else out.push(0x49, n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
}

// A type map of classes [{type, fields}]: its canonical encoding, digest and digest in hex.
function typeMap(classes) {
  const out = [0x48, 0x54, 0x4d, 0x31]; // HTM1
  for (const c of classes) {
    out.push(0x43);
    putString(out, c.type);
    putCount(out, c.fields.length);
    for (const f of c.fields) putString(out, f);
  }
  const canonical = Buffer.from(out);
  const digest = crypto.createHash('sha256').update(canonical).digest().subarray(0, 16);
  return { classes, canonical, digest, hex: digest.toString('hex') };
}

// ---- messages ----

// A call's body, plain or referring to `map`, and the classes it defined beyond the map, in
// the order it defined them.
function writeCall(method, args, map) {
  const enc = new hessian.EncoderV2();
  const seeded = map ? map.classes.length : 0;
  if (map) {
    for (const c of map.classes) {
      enc._classRefs.push(c.type);
      enc._classRefFields[c.type] = c.fields;
    }
  }
  enc.write(method);
  enc.write(args.length);
  for (const a of args) enc.write(a);
  const defined = enc._classRefs.slice(seeded).map((type) => ({ type, fields: enc._classRefFields[type] }));
  const head = map
    ? Buffer.concat([Buffer.from([0x48, 2, 1, 0x54, 0x30]), map.digest, Buffer.from([0x43])])
    : Buffer.from([0x48, 2, 0, 0x43]);
  return { body: Buffer.concat([head, enc.get()]), defined };
}

class ProtocolError extends Error {}

// A reply body, plain or referring: {value} or {fault}, with `map` (the map a referring reply
// referred to) or `defined` (the classes a plain one defined). A referring reply must refer to
// `offered`, the reply map this client sent in Hessian-Reply-Map.
function readReply(buf, offered) {
  if (buf.length < 4 || buf[0] !== 0x48 || buf[1] !== 2) {
    throw new ProtocolError('not a Hessian 2 reply: ' + buf.subarray(0, 8).toString('hex'));
  }
  let at = 3;
  let map = null;
  if (buf[2] === 1) {
    if (buf.length < 22 || buf[3] !== 0x54 || buf[4] !== 0x30) throw new ProtocolError('malformed referring reply');
    const hex = buf.subarray(5, 21).toString('hex');
    if (!offered || offered.hex !== hex) throw new ProtocolError('referring reply to map ' + hex + ', not offered');
    map = offered;
    at = 21;
  } else if (buf[2] !== 0) {
    throw new ProtocolError('unknown Hessian 2 minor version ' + buf[2]);
  }
  const tag = buf[at];
  if (tag !== 0x52 && tag !== 0x46) throw new ProtocolError('not a reply or fault: ' + tag.toString(16));
  const dec = new hessian.DecoderV2(buf.subarray(at + 1));
  if (map) dec.classes = map.classes.map((c) => ({ name: c.type, fields: c.fields }));
  const r = tag === 0x52 ? { value: dec.read(true) } : { fault: dec.read(false) };
  if (map) r.map = map;
  else r.defined = dec.classes.map((c) => ({ type: c.name, fields: c.fields }));
  return r;
}

// A call's method and arguments and the classes it defined (to check the vectors' calls).
function readCall(buf, map) {
  const at = map ? 21 : 3;
  const dec = new hessian.DecoderV2(buf.subarray(at + 1));
  if (map) dec.classes = map.classes.map((c) => ({ name: c.type, fields: c.fields }));
  const method = dec.readString();
  const args = [];
  for (let n = dec.readInt(); n > 0; n--) args.push(dec.read(true));
  const defined = dec.classes.slice(map ? map.classes.length : 0).map((c) => ({ type: c.name, fields: c.fields }));
  return { method, args, defined };
}

// Section 6.2: the refusal of a referring call to the map `hex` (nothing ran).
function isRefusal(fault, hex) {
  return !!fault && fault.code === 'UnknownTypeMap' && typeof fault.message === 'string' && fault.message.includes(hex);
}

// Section 6.2: Caucho's skeleton stopped at the T of a referring call (nothing ran).
function isCauchoRefusal(body) {
  return /expected hessian call \((?:'|&#39;|&apos;)C(?:'|&#39;|&apos;)\) at 0x54/.test(body.toString('latin1'));
}

// The digests a Hessian-Type-Map header lists.
function listed(header) {
  return (header || '').split(',').map((d) => d.trim().toLowerCase()).filter((d) => /^[0-9a-f]{32}$/.test(d));
}

// ---- HTTP ----

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(url, body, headers) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname, method: 'POST', agent,
      headers: Object.assign({ 'Content-Type': 'x-application/hessian', 'Content-Length': body.length }, headers),
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---- the client ----

// How long an endpoint that ignored the offer is called plain before the offer is made again
// (section 8: a server may be upgraded, or a hop that dropped the header fixed).
const REPROBE_AFTER_MS = 5 * 60 * 1000;

// A negotiating client of one endpoint (section 8): `support` is unknown, aware or plain; per
// method it keeps the request map the endpoint confirmed, a reply map, and whether the next
// call must be plain.
class Client {
  constructor(url, reprobeAfterMs = REPROBE_AFTER_MS) {
    this.url = url;
    this.support = 'unknown';
    this.reprobeAfterMs = reprobeAfterMs;
    this.plainSince = 0;
    this.methods = new Map();
    this.stats = {
      calls: 0, plain: 0, referring: 0, resends: 0, unknown_type_map: 0, fallbacks: 0, referring_replies: 0,
      request_sizes: {}, reply_sizes: {},
    };
  }

  method(name) {
    if (!this.methods.has(name)) this.methods.set(name, { request: null, reply: null, plainNext: false });
    return this.methods.get(name);
  }

  async send(body, headers, referring) {
    this.stats[referring ? 'referring' : 'plain']++;
    this.stats.request_sizes[body.length] = (this.stats.request_sizes[body.length] || 0) + 1;
    const res = await post(this.url, body, headers);
    this.stats.reply_sizes[res.body.length] = (this.stats.reply_sizes[res.body.length] || 0) + 1;
    return res;
  }

  // Marks the endpoint plain (it does not speak the extension, now): every map is forgotten.
  plain() {
    this.support = 'plain';
    this.plainSince = Date.now();
    this.methods.clear();
  }

  // Calls `name` with `args`: the reply's value, or an error (a fault, an HTTP error).
  async call(name, args) {
    this.stats.calls++;
    if (this.support === 'plain' && Date.now() - this.plainSince >= this.reprobeAfterMs) this.support = 'unknown';
    const m = this.method(name);
    if (this.support === 'aware' && m.request && !m.plainNext) {
      const map = m.request;
      const { body, defined } = writeCall(name, args, map);
      if (defined.length > 0) m.plainNext = true; // 4.2: the next call establishes a map with all
      // a referring call is an offer by its body (3): only the reply map goes in a header
      const res = await this.send(body, m.reply ? { 'Hessian-Reply-Map': m.reply.hex } : {}, true);
      if (res.status === 200) {
        const r = readReply(res.body, m.reply);
        if (!isRefusal(r.fault, map.hex)) return this.result(m, res, r);
        this.stats.unknown_type_map++;
        m.request = null;
      } else if (isCauchoRefusal(res.body)) {
        this.stats.fallbacks++;
        this.plain();
      } else {
        throw new Error('HTTP ' + res.status + ': ' + res.body.toString('latin1').slice(0, 200));
      }
      this.stats.resends++; // once, plain: a plain call cannot be refused
    }
    m.plainNext = false;
    const offers = this.support !== 'plain';
    const { body, defined } = writeCall(name, args, null);
    const headers = {};
    if (offers) headers['Hessian-Type-Maps'] = '1';
    const replyMap = this.support === 'aware' ? m.reply : null;
    if (replyMap) headers['Hessian-Reply-Map'] = replyMap.hex;
    const res = await this.send(body, headers, false);
    if (offers && res.status === 200) {
      const versions = (res.headers['hessian-type-maps'] || '').split(',').map((v) => v.trim());
      if (versions.includes('1')) {
        this.support = 'aware';
        const mine = typeMap(defined);
        if (defined.length > 0 && listed(res.headers['hessian-type-map']).includes(mine.hex)) m.request = mine;
      } else {
        this.plain();
      }
    }
    if (res.status !== 200) throw new Error('HTTP ' + res.status + ': ' + res.body.toString('latin1').slice(0, 200));
    return this.result(this.method(name), res, readReply(res.body, replyMap));
  }

  // A reply's value (or its fault as an error), learning a plain reply's map when listed.
  result(m, res, r) {
    if (r.map) {
      this.stats.referring_replies++;
    } else if (this.support === 'aware' && r.defined.length > 0) {
      const map = typeMap(r.defined);
      if (listed(res.headers['hessian-type-map']).includes(map.hex)) m.reply = map;
    }
    if (r.fault) throw new Error('fault: ' + JSON.stringify(r.fault));
    return r.value;
  }
}

// ---- commands ----

function fail(why) {
  console.log('MISMATCH ' + why);
  process.exit(1);
}

function vectors(file) {
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const maps = new Map();
  for (const v of doc.maps) {
    const map = typeMap(v.classes);
    if (map.canonical.toString('hex') !== v.canonical) fail(v.name + ': canonical bytes differ');
    if (map.hex !== v.digest) fail(v.name + ': digest ' + map.hex + ', want ' + v.digest);
    maps.set(v.name, map);
    console.log('ok map ' + v.name);
  }
  const bytes = new Map(doc.messages.map((v) => [v.name, Buffer.from(v.hex, 'hex')]));
  for (const v of doc.messages) {
    const b = bytes.get(v.name);
    const call = (map) => b[map ? 21 : 3] === 0x43;
    if (v.defines) {
      const defined = call(null) ? readCall(b, null).defined : readReply(b, null).defined;
      if (typeMap(defined).hex !== maps.get(v.defines).hex) fail(v.name + ': defines another map');
    }
    if (v.refers_to) {
      const map = maps.get(v.refers_to);
      const plain = bytes.get(v.plain);
      if (!b.subarray(0, 21).equals(Buffer.concat([Buffer.from([0x48, 2, 1, 0x54, 0x30]), map.digest]))) {
        fail(v.name + ': header');
      }
      const [got, want] = call(map)
        ? [readCall(b, map), readCall(plain, null)].map((c) => ({ method: c.method, args: dump(c.args) }))
        : [readReply(b, map), readReply(plain, null)].map((r) => dump(r.value));
      check(v.name + ' read as ' + v.plain, got, want);
    }
    if (v.refusal_of) {
      const { fault } = readReply(b, null);
      if (!isRefusal(fault, maps.get(v.refusal_of).hex)) fail(v.name + ': not recognised as the refusal');
      if (isRefusal(fault, maps.get('ascii').hex)) fail(v.name + ': recognised as the refusal of another map');
      check(v.name + ' fault', fault, { code: v.code, message: v.message });
    }
    console.log('ok message ' + v.name);
  }
  // this client writes the W2 calls of the vectors byte for byte
  const plain = writeCall('exchange', [w2Request()], null);
  if (!plain.body.equals(bytes.get('w2-plain-call'))) fail('the plain W2 call this client writes differs');
  if (typeMap(plain.defined).hex !== maps.get('w2').hex) fail('the W2 call this client writes defines another map');
  if (!writeCall('exchange', [w2Request()], maps.get('w2')).body.equals(bytes.get('w2-referring-call'))) {
    fail('the referring W2 call this client writes differs');
  }
  console.log('ok w2 calls written');
}

async function exchange(client, i) {
  const got = await client.call('exchange', [w2Request()]);
  check('W2 reply of call ' + i, dump(got), dump(w2Reply()));
}

async function lineFromStdin() {
  for await (const chunk of process.stdin) if (String(chunk).includes('\n')) return;
}

async function main() {
  const [cmd, a, b] = process.argv.slice(2);
  if (cmd === 'vectors') {
    vectors(a);
    return;
  }
  const reprobe = process.env.REPROBE_AFTER_MS;
  const client = new Client(a, reprobe === undefined ? REPROBE_AFTER_MS : Number(reprobe));
  const n = Number(b);
  if (cmd === 'w2') {
    for (let i = 0; i < n; i++) await exchange(client, i);
  } else if (cmd === 'restart') {
    for (let i = 0; i < n / 2; i++) await exchange(client, i);
    console.log('PAUSE');
    await lineFromStdin();
    // the server was stopped meanwhile: its pooled connections are gone (dropped here rather
    // than found closed by a request racing the stopped server's FIN)
    agent.destroy();
    for (let i = n / 2; i < n; i++) await exchange(client, i);
  } else if (cmd === 'alternate') {
    for (let i = 0; i < n; i++) {
      await exchange(client, i);
      checkItems(await client.call('getItems', [{ $class: 'int', $: 10 }]), 10);
    }
  } else {
    throw new Error('unknown command ' + cmd);
  }
  agent.destroy();
  console.log(JSON.stringify(Object.assign({ summary: true, support: client.support }, client.stats)));
}

main().catch((e) => {
  console.error(e && e.stack || e);
  process.exit(1);
});
