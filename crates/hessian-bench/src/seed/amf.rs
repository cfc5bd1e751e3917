//! The AMF3 row of experiment 2: Flash remoting over the suite's hyper HTTP/1.1 client and
//! server (`peers`), `POST /amf` with `Content-Type: application/x-amf`.
//!
//! **The messages** are what Flash Player's `NetConnection.call` sends with `objectEncoding = 3`
//! and what BlazeDS, AMFPHP and PyAMF gateways answer: an AMF0 packet (Adobe's "AMF0 File Format
//! Specification", section 4: version 3, no headers, one message) whose message targets the
//! service method (`bench.getItems`, `bench.exchange`) with response URI `/1`, its body an AMF0
//! strict array of the arguments, each an AMF0 `avmplus-object-marker` (0x11) switching to an
//! AMF3 value. The reply message targets `/1/onResult` (or `/1/onStatus` for an error, a status
//! object `{level, code, description}`), response URI `null`, its body 0x11 and the AMF3 result.
//! Flex's `RemoteObject` wraps the same envelope around messaging objects (`RemotingMessage`,
//! `AcknowledgeMessage`: ids, client id, timestamps, headers); those are not sent here, so the
//! row measures the AMF3 encoding of the workloads and the envelope, not Flex's messaging layer.
//!
//! **The values** are AMF3 (Adobe's "AMF 3 Specification"): the W1 and W2 structs as typed,
//! sealed objects whose class names are the Java classes' (`org.example.remoting.Item`,
//! `com.squarespace.hopper.types.Order`, …), as BlazeDS would write them; `int` fields as AMF3
//! integers (doubles beyond 29 bits), `long` fields as doubles (exact to 2^53, as BlazeDS writes a
//! Java `long`), `float` and `double` as doubles, dates as AMF3 dates (milliseconds), lists as
//! dense arrays. Strings and traits are sent by reference after their first occurrence.
//!
//! **Which parts are whose.** Reading is `flash-lso` 0.7 (Ruffle's AMF0/AMF3 crate): its packet
//! reader (`flash_lso::packet::read`) parses the envelope and the AMF0 and AMF3 values into its
//! `Value` tree, which [`order_from`] and [`items_from`] map to the structs. Writing is this
//! module's own ([`Writer`], [`packet`]): `flash-lso`'s AMF3 encoder keeps its string and object
//! reference tables as lists searched linearly, and stores a deep copy of every object it writes
//! in the object table (comparing it with all the earlier ones), so its cost grows with the
//! square of the number of objects and strings (a 5,000-item W1 reply makes 5,000 objects and
//! 20,000 strings; in a debug build it took 0.42 s for 1,000 items and 1.8 s for 2,000, against
//! 15 and 35 ms here); and its packet writer takes a `Value` tree, not bytes. The bytes are the
//! same: a test compares this writer's W1 reply packet with `flash-lso`'s, byte for byte. The writer here is a
//! direct, typed encoder of the two workloads with hash-map reference tables, as a production
//! AMF3 writer (BlazeDS's `Amf3Output`) has.

use crate::seed::peers::{self, HttpClient};
use flash_lso::types::{Element, ObjectId, Value};
use hessian::serde::Date;
use hessian_testkit::structs::{self, w2, Item};
use std::collections::HashMap;
use tokio::net::TcpListener;

/// The content type of AMF requests and replies.
pub const CONTENT_TYPE: &str = "application/x-amf";

/// The service name of the targets (`bench.getItems`, `bench.exchange`).
pub const SERVICE: &str = "bench";

/// The largest request the server reads (the W1 and W2 requests are below 2 KiB): it bounds the
/// nesting depth of what `flash-lso`'s recursive reader is given.
pub const MAX_REQUEST: usize = 16 * 1024;

/// The stack of the AMF server's threads: `flash-lso` reads nested values recursively, without
/// a depth limit, so the deepest request of [`MAX_REQUEST`] bytes (nested objects, two bytes a
/// level) must fit (a test checks it in the debug build, whose frames are the largest).
pub const SERVER_STACK: usize = 64 << 20;

/// AMF0's avmplus-object-marker: the value that follows is AMF3.
const AVMPLUS: u8 = 0x11;
/// AMF0's strict-array-marker.
const AMF0_STRICT_ARRAY: u8 = 0x0a;

// AMF3 markers.
#[cfg(test)]
const NULL: u8 = 0x01;
const INTEGER: u8 = 0x04;
const DOUBLE: u8 = 0x05;
const STRING: u8 = 0x06;
const DATE: u8 = 0x08;
const ARRAY: u8 = 0x09;
const OBJECT: u8 = 0x0a;

/// A class of the workloads: its name and its sealed properties, in the order they are written.
type Class = (&'static str, &'static [&'static str]);

const ITEM: Class = (
    "org.example.remoting.Item",
    &["name", "street", "city", "comment", "id", "count", "price", "ratio", "created", "updated"],
);
const MONEY: Class = ("com.squarespace.hopper.types.Money", &["cents", "currency"]);
const ADDRESS: Class = ("com.squarespace.hopper.types.Address", &["street", "city", "zip", "country"]);
const CUSTOMER: Class = ("com.squarespace.hopper.types.Customer", &["id", "name", "email", "address"]);
const PRODUCT: Class = ("com.squarespace.hopper.types.Product", &["sku", "name", "price"]);
const LINE_ITEM: Class = ("com.squarespace.hopper.types.LineItem", &["quantity", "product", "total"]);
const ORDER: Class = ("com.squarespace.hopper.types.Order", &["id", "customer", "lines", "total", "placed"]);
/// The anonymous status object of an `onStatus` reply.
const STATUS: Class = ("", &["level", "code", "description"]);

/// An AMF3 writer: one AMF3 context (string and trait reference tables) appending to a buffer.
/// Every AMF3 value of one message body shares one context, as Flash Player and PyAMF write them.
#[derive(Default)]
pub struct Writer {
    /// The bytes written so far.
    pub out: Vec<u8>,
    strings: HashMap<Box<str>, u32>,
    traits: HashMap<&'static str, u32>,
}

impl Writer {
    /// A U29 (0 ..= 2^29 - 1), in one to four bytes.
    fn u29(&mut self, v: u32) {
        let v = v & 0x1fff_ffff;
        if v < 0x80 {
            self.out.push(v as u8);
        } else if v < 0x4000 {
            self.out.extend([(v >> 7) as u8 | 0x80, (v & 0x7f) as u8]);
        } else if v < 0x20_0000 {
            self.out.extend([(v >> 14) as u8 | 0x80, (v >> 7) as u8 | 0x80, (v & 0x7f) as u8]);
        } else {
            self.out.extend([(v >> 22) as u8 | 0x80, (v >> 15) as u8 | 0x80, (v >> 8) as u8 | 0x80, v as u8]);
        }
    }

    /// An `int`: an AMF3 integer when it fits in 29 bits, else a double.
    pub fn int(&mut self, v: i32) {
        if (-(1 << 28)..(1 << 28)).contains(&v) {
            self.out.push(INTEGER);
            self.u29(v as u32);
        } else {
            self.double(f64::from(v));
        }
    }

    /// A double.
    pub fn double(&mut self, v: f64) {
        self.out.push(DOUBLE);
        self.out.extend(v.to_be_bytes());
    }

    /// A `long`, as a double (refused beyond 2^53, where a double is no longer exact).
    pub fn long(&mut self, v: i64) -> Result<(), String> {
        if v.unsigned_abs() > 1 << 53 {
            return Err(format!("{v} has no exact AMF3 number"));
        }
        self.double(v as f64);
        Ok(())
    }

    /// A string's UTF-8-vr: a reference to an earlier occurrence, or inline (and remembered).
    fn utf8(&mut self, s: &str) -> Result<(), String> {
        if s.is_empty() {
            self.out.push(0x01);
            return Ok(());
        }
        if let Some(&i) = self.strings.get(s) {
            self.u29(i << 1);
            return Ok(());
        }
        let len = u32::try_from(s.len()).ok().filter(|l| *l < 1 << 28).ok_or("a string beyond 2^28 bytes")?;
        let i = self.strings.len() as u32;
        self.strings.insert(s.into(), i);
        self.u29(len << 1 | 1);
        self.out.extend_from_slice(s.as_bytes());
        Ok(())
    }

    /// A string value.
    pub fn string(&mut self, s: &str) -> Result<(), String> {
        self.out.push(STRING);
        self.utf8(s)
    }

    /// A date, milliseconds since the epoch (UTC).
    pub fn date(&mut self, ms: i64) {
        self.out.push(DATE);
        self.u29(1);
        self.out.extend((ms as f64).to_be_bytes());
    }

    /// The start of a dense array of `n` values (the values follow).
    pub fn array(&mut self, n: usize) -> Result<(), String> {
        let n = u32::try_from(n).ok().filter(|n| *n < 1 << 28).ok_or("an array beyond 2^28 values")?;
        self.out.push(ARRAY);
        self.u29(n << 1 | 1);
        self.out.push(0x01); // no associative part
        Ok(())
    }

    /// The start of an object of a sealed class (its property values follow, in the class's
    /// order): the traits inline the first time, by reference after.
    fn object(&mut self, (name, props): Class) -> Result<(), String> {
        self.out.push(OBJECT);
        if let Some(&i) = self.traits.get(name) {
            self.u29(i << 2 | 0b01);
            return Ok(());
        }
        self.traits.insert(name, self.traits.len() as u32);
        // U29O-traits: property count, not dynamic, not externalizable, traits and object inline
        self.u29((props.len() as u32) << 4 | 0b0011);
        self.utf8(name)?;
        for p in props {
            self.utf8(p)?;
        }
        Ok(())
    }

    /// A W1 item.
    pub fn item(&mut self, i: &Item) -> Result<(), String> {
        self.object(ITEM)?;
        for s in [&i.name, &i.street, &i.city, &i.comment] {
            self.string(s)?;
        }
        self.long(i.id)?;
        self.int(i.count);
        self.double(i.price);
        self.double(f64::from(i.ratio));
        self.date(i.created.0);
        self.date(i.updated.0);
        Ok(())
    }

    /// A W1 list.
    pub fn items(&mut self, items: &[Item]) -> Result<(), String> {
        self.array(items.len())?;
        items.iter().try_for_each(|i| self.item(i))
    }

    fn money(&mut self, m: &w2::Money) -> Result<(), String> {
        self.object(MONEY)?;
        self.int(m.cents);
        self.string(&m.currency)
    }

    /// A W2 order.
    pub fn order(&mut self, o: &w2::Order) -> Result<(), String> {
        self.object(ORDER)?;
        self.long(o.id)?;
        let c = &o.customer;
        self.object(CUSTOMER)?;
        self.long(c.id)?;
        self.string(&c.name)?;
        self.string(&c.email)?;
        self.object(ADDRESS)?;
        for s in [&c.address.street, &c.address.city, &c.address.zip, &c.address.country] {
            self.string(s)?;
        }
        self.array(o.lines.len())?;
        for l in &o.lines {
            self.object(LINE_ITEM)?;
            self.int(l.quantity);
            self.object(PRODUCT)?;
            self.string(&l.product.sku)?;
            self.string(&l.product.name)?;
            self.money(&l.product.price)?;
            self.money(&l.total)?;
        }
        self.money(&o.total)?;
        self.date(o.placed.0);
        Ok(())
    }

    /// An `onStatus` object.
    fn status(&mut self, code: &str, description: &str) -> Result<(), String> {
        self.object(STATUS)?;
        self.string("error")?;
        self.string(code)?;
        self.string(description)
    }
}

/// One message of a packet: target URI, response URI and its AMF0 body.
pub struct Message<'a> {
    /// The target URI (`bench.getItems`; in a reply `/1/onResult`).
    pub target: &'a str,
    /// The response URI (`/1`; in a reply `null`).
    pub response: &'a str,
    /// The AMF0 body.
    pub body: &'a [u8],
}

/// An AMF0 packet of version 3 without headers, the messages' body lengths exact.
pub fn packet(messages: &[Message<'_>]) -> Result<Vec<u8>, String> {
    let u16_len = |s: &str| u16::try_from(s.len()).map_err(|_| format!("a URI of {} bytes", s.len()));
    let mut out = Vec::with_capacity(16 + messages.iter().map(|m| m.body.len() + 32).sum::<usize>());
    out.extend(3u16.to_be_bytes());
    out.extend(0u16.to_be_bytes());
    out.extend(u16::try_from(messages.len()).map_err(|_| "too many messages")?.to_be_bytes());
    for m in messages {
        for uri in [m.target, m.response] {
            out.extend(u16_len(uri)?.to_be_bytes());
            out.extend_from_slice(uri.as_bytes());
        }
        out.extend(u32::try_from(m.body.len()).map_err(|_| "a body beyond 4 GiB")?.to_be_bytes());
        out.extend_from_slice(m.body);
    }
    Ok(out)
}

/// A call's body: an AMF0 strict array of the arguments, each switched to AMF3 (one AMF3 context
/// for all), written by `args` through [`Writer::arg`].
fn call_body(count: u32, args: impl FnOnce(&mut Writer) -> Result<(), String>) -> Result<Vec<u8>, String> {
    let mut w = Writer::default();
    w.out.push(AMF0_STRICT_ARRAY);
    w.out.extend(count.to_be_bytes());
    args(&mut w)?;
    Ok(w.out)
}

impl Writer {
    /// Switches to AMF3 for the next value (AMF0's avmplus-object-marker).
    pub fn arg(&mut self) -> &mut Writer {
        self.out.push(AVMPLUS);
        self
    }
}

/// The request packet of `getItems(n)`.
pub fn get_items_request(n: i32) -> Result<Vec<u8>, String> {
    let body = call_body(1, |w| {
        w.arg().int(n);
        Ok(())
    })?;
    packet(&[Message { target: "bench.getItems", response: "/1", body: &body }])
}

/// The request packet of `exchange(order)`.
pub fn exchange_request(order: &w2::Order) -> Result<Vec<u8>, String> {
    let body = call_body(1, |w| w.arg().order(order))?;
    packet(&[Message { target: "bench.exchange", response: "/1", body: &body }])
}

/// A reply packet to the response URI `to`: `/onResult` with the AMF3 value `write` writes, or
/// `/onStatus` with the status object of an error.
fn reply(to: &str, write: impl FnOnce(&mut Writer) -> Result<(), String>) -> Result<Vec<u8>, String> {
    let mut w = Writer::default();
    w.out.push(AVMPLUS);
    let target = match write(&mut w) {
        Ok(()) => format!("{to}/onResult"),
        Err(why) => {
            w = Writer::default();
            w.out.push(AVMPLUS);
            w.status("Server.Processing", &why)?;
            format!("{to}/onStatus")
        }
    };
    packet(&[Message { target: &target, response: "null", body: &w.out }])
}

/// Resolves AMF3 object references (`Amf3ObjectReference`) against the objects and arrays of
/// the value they occur in (`flash-lso` numbers them in reading order, as the object table).
struct Refs<'a> {
    root: &'a Value,
}

impl<'a> Refs<'a> {
    fn find(v: &'a Value, id: ObjectId) -> Option<&'a Value> {
        match v {
            Value::Object { id: i, data } => {
                if *i == id {
                    return Some(v);
                }
                data.elements.iter().find_map(|e| Self::find(&e.value, id))
            }
            Value::StrictArray { id: i, values } => {
                if *i == id {
                    return Some(v);
                }
                values.iter().find_map(|x| Self::find(x, id))
            }
            Value::ECMAArray { id: i, data } => {
                if *i == id {
                    return Some(v);
                }
                data.dense.iter().chain(data.elements.iter().map(|e| &e.value)).find_map(|x| Self::find(x, id))
            }
            Value::AMF3(x) => Self::find(x, id),
            _ => None,
        }
    }

    /// `v`, or the value it refers to.
    fn get(&self, v: &'a Value) -> Result<&'a Value, String> {
        match v {
            Value::Amf3ObjectReference(id) => {
                Self::find(self.root, *id).ok_or_else(|| format!("a reference to object {} that is not there", id.0))
            }
            Value::AMF3(x) => self.get(x),
            v => Ok(v),
        }
    }

    /// The properties of an object of `class` (its name checked).
    fn object(&self, v: &'a Value, (class, _): Class) -> Result<Fields<'a>, String> {
        match self.get(v)? {
            Value::Object { data, .. } => {
                let name = data.class_definition.as_ref().map_or("", |c| c.name.as_str());
                if name != class {
                    return Err(format!("expected a {class}, got an object of class {name:?}"));
                }
                Ok(Fields { elements: &data.elements, class })
            }
            other => Err(format!("expected a {class}, got {}", kind(other))),
        }
    }

    /// The values of a dense array.
    fn array(&self, v: &'a Value) -> Result<&'a [Value], String> {
        match self.get(v)? {
            Value::StrictArray { values, .. } => Ok(values),
            Value::ECMAArray { data, .. } if data.elements.is_empty() => Ok(&data.dense),
            other => Err(format!("expected an array, got {}", kind(other))),
        }
    }
}

/// What a value is, for error messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Number(_) => "a number",
        Value::Integer(_) => "an integer",
        Value::Bool(_) => "a boolean",
        Value::String(_) => "a string",
        Value::Object { .. } | Value::Custom(_) => "an object",
        Value::Null => "null",
        Value::Undefined => "undefined",
        Value::StrictArray { .. } | Value::ECMAArray { .. } => "an array",
        Value::Date { .. } => "a date",
        Value::ByteArray(_) => "a byte array",
        _ => "another AMF type",
    }
}

/// The properties of one object.
struct Fields<'a> {
    elements: &'a [Element],
    class: &'static str,
}

impl<'a> Fields<'a> {
    fn get(&self, name: &str) -> Result<&'a Value, String> {
        self.elements
            .iter()
            .find(|e| e.name == name)
            .map(|e| &e.value)
            .ok_or_else(|| format!("{} without {name}", self.class))
    }

    fn err(&self, name: &str, what: &str, v: &Value) -> String {
        format!("{}.{name}: expected {what}, got {}", self.class, kind(v))
    }

    fn f64(&self, name: &str) -> Result<f64, String> {
        match self.get(name)? {
            Value::Number(f) => Ok(*f),
            Value::Integer(i) => Ok(f64::from(*i)),
            v => Err(self.err(name, "a number", v)),
        }
    }

    fn i64(&self, name: &str) -> Result<i64, String> {
        match self.get(name)? {
            Value::Integer(i) => Ok(i64::from(*i)),
            Value::Number(f) if f.fract() == 0.0 && f.abs() <= (1u64 << 53) as f64 => Ok(*f as i64),
            v => Err(self.err(name, "an integral number", v)),
        }
    }

    fn i32(&self, name: &str) -> Result<i32, String> {
        let v = self.i64(name)?;
        i32::try_from(v).map_err(|_| format!("{}.{name}: {v} is not an int", self.class))
    }

    fn string(&self, name: &str) -> Result<String, String> {
        match self.get(name)? {
            Value::String(s) => Ok(s.clone()),
            v => Err(self.err(name, "a string", v)),
        }
    }

    /// A date as milliseconds (rounded: AMF3 dates are doubles, and a peer's clock types may
    /// carry a fraction of a millisecond).
    fn date(&self, name: &str) -> Result<Date, String> {
        match self.get(name)? {
            Value::Date { time, .. } if time.is_finite() && time.abs() < 8.64e15 => Ok(Date(time.round() as i64)),
            v => Err(self.err(name, "a date", v)),
        }
    }
}

fn item_from(r: &Refs<'_>, v: &Value) -> Result<Item, String> {
    let f = r.object(v, ITEM)?;
    let ratio = f.f64("ratio")?;
    Ok(Item {
        name: f.string("name")?,
        street: f.string("street")?,
        city: f.string("city")?,
        comment: f.string("comment")?,
        id: f.i64("id")?,
        count: f.i32("count")?,
        price: f.f64("price")?,
        ratio: ratio as f32,
        created: f.date("created")?,
        updated: f.date("updated")?,
    })
}

/// A W1 list from an AMF3 value read by `flash-lso`.
pub fn items_from(v: &Value) -> Result<Vec<Item>, String> {
    let r = Refs { root: v };
    r.array(v)?.iter().map(|x| item_from(&r, x)).collect()
}

fn money_from(r: &Refs<'_>, v: &Value) -> Result<w2::Money, String> {
    let f = r.object(v, MONEY)?;
    Ok(w2::Money { cents: f.i32("cents")?, currency: f.string("currency")? })
}

/// A W2 order from an AMF3 value read by `flash-lso`.
pub fn order_from(v: &Value) -> Result<w2::Order, String> {
    let r = Refs { root: v };
    let o = r.object(v, ORDER)?;
    let c = r.object(o.get("customer")?, CUSTOMER)?;
    let a = r.object(c.get("address")?, ADDRESS)?;
    let lines = r
        .array(o.get("lines")?)?
        .iter()
        .map(|l| {
            let l = r.object(l, LINE_ITEM)?;
            let p = r.object(l.get("product")?, PRODUCT)?;
            Ok(w2::LineItem {
                quantity: l.i32("quantity")?,
                product: w2::Product {
                    sku: p.string("sku")?,
                    name: p.string("name")?,
                    price: money_from(&r, p.get("price")?)?,
                },
                total: money_from(&r, l.get("total")?)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(w2::Order {
        id: o.i64("id")?,
        customer: w2::Customer {
            id: c.i64("id")?,
            name: c.string("name")?,
            email: c.string("email")?,
            address: w2::Address {
                street: a.string("street")?,
                city: a.string("city")?,
                zip: a.string("zip")?,
                country: a.string("country")?,
            },
        },
        lines,
        total: money_from(&r, o.get("total")?)?,
        placed: o.date("placed")?,
    })
}

/// Parses an AMF0 packet with `flash-lso`.
pub fn parse(bytes: &[u8]) -> Result<flash_lso::packet::Packet, String> {
    flash_lso::packet::read::parse(bytes).map_err(|e| format!("not an AMF packet: {e:?}"))
}

/// The arguments of a request message's body: an AMF0 strict array (each argument possibly
/// switched to AMF3), or one AMF3 array (PyAMF accepts both).
fn arguments(body: &Value) -> Result<&[Value], String> {
    match body {
        Value::StrictArray { values, .. } => Ok(values),
        Value::AMF3(v) => match v.as_ref() {
            Value::StrictArray { values, .. } => Ok(values),
            other => Err(format!("the arguments are {}, not an array", kind(other))),
        },
        other => Err(format!("the arguments are {}, not an array", kind(other))),
    }
}

/// Answers one AMF request packet of the W1/W2 service: the reply packet (an `onStatus` reply
/// for a call that fails), or why the packet cannot be answered at all (not an AMF packet, or
/// no message in it: no response URI to answer). `broken`: `getItems(n)` answers `n + 1` items
/// (the suite's test of a peer that answers wrongly).
pub fn answer(bytes: &[u8], request: &w2::Order, reply_order: &w2::Order, broken: bool) -> Result<Vec<u8>, String> {
    if bytes.len() > MAX_REQUEST {
        return Err(format!("an AMF request of {} bytes (at most {MAX_REQUEST})", bytes.len()));
    }
    let packet = parse(bytes)?;
    let Some(m) = packet.messages.first() else { return Err("an AMF packet without a message".into()) };
    if packet.messages.len() > 1 {
        return Err(format!("{} messages in one packet (one call per request)", packet.messages.len()));
    }
    let method = m.target_uri.strip_prefix(SERVICE).and_then(|t| t.strip_prefix('.')).unwrap_or(&m.target_uri);
    let args = arguments(&m.contents);
    reply(&m.response_uri, |w| {
        let args = args?;
        let [arg] = args else { return Err(format!("{method}: {} arguments, expected 1", args.len())) };
        match method {
            "getItems" => {
                let n = match (Refs { root: arg }).get(arg)? {
                    Value::Integer(n) => i64::from(*n),
                    Value::Number(f) if f.fract() == 0.0 && f.abs() < 1e9 => *f as i64,
                    other => return Err(format!("getItems: n is {}", kind(other))),
                };
                let n = usize::try_from(n).ok().filter(|n| *n <= 1_000_000).ok_or(format!("getItems: bad n {n}"))?;
                w.items(&structs::items(if broken { n + 1 } else { n }))
            }
            "exchange" => {
                let order = order_from(arg).map_err(|e| format!("exchange: {e}"))?;
                if &order != request {
                    return Err(format!("exchange: not the W2 request (order {})", order.id));
                }
                w.order(reply_order)
            }
            _ => Err(format!("no method {:?}", m.target_uri)),
        }
    })
}

/// Serves the AMF gateway on `listener` (any path) until the process ends; `broken` as in
/// [`answer`].
pub async fn serve(listener: TcpListener, broken: bool) {
    let (request, reply) = (w2::request(), w2::reply());
    let handler: peers::Handler =
        std::sync::Arc::new(move |_path: &str, body: &[u8]| answer(body, &request, &reply, broken));
    peers::serve_with(listener, CONTENT_TYPE, handler).await
}

/// The result of a reply packet to response URI `/1`: the AMF3 value of `/1/onResult`, or the
/// error of `/1/onStatus`.
pub fn result(bytes: &[u8]) -> Result<Value, String> {
    let packet = parse(bytes)?;
    for m in packet.messages {
        match m.target_uri.as_str() {
            "/1/onResult" => return Ok(m.contents),
            "/1/onStatus" => {
                let why = match &m.contents {
                    Value::AMF3(v) => match v.as_ref() {
                        Value::Object { data, .. } => data
                            .elements
                            .iter()
                            .find(|e| e.name == "description")
                            .and_then(|e| if let Value::String(s) = &e.value { Some(s.clone()) } else { None }),
                        _ => None,
                    },
                    _ => None,
                };
                return Err(format!("onStatus: {}", why.unwrap_or_else(|| format!("{:?}", m.contents))));
            }
            _ => {}
        }
    }
    Err("no reply to /1 in the AMF packet".into())
}

/// The path the client posts to.
const PATH: &str = "/amf";

/// A client of the AMF gateway at `addr` (`127.0.0.1:PORT`).
pub fn client(addr: &str) -> HttpClient {
    HttpClient::raw(addr, CONTENT_TYPE)
}

/// One `getItems(n)`: the items with the request and reply body bytes.
pub async fn get_items(client: &mut HttpClient, n: usize) -> Result<(Vec<Item>, usize, usize), String> {
    let body = get_items_request(i32::try_from(n).map_err(|_| format!("n = {n}"))?)?;
    let q = body.len();
    let reply = client.post(PATH, body).await?;
    let items = items_from(&result(&reply)?).map_err(|e| format!("getItems({n}): {e}"))?;
    Ok((items, q, reply.len()))
}

/// One `exchange(request)`: the reply with the request and reply body bytes.
pub async fn exchange(client: &mut HttpClient, request: &w2::Order) -> Result<(w2::Order, usize, usize), String> {
    let body = exchange_request(request)?;
    let q = body.len();
    let reply = client.post(PATH, body).await?;
    let order = order_from(&result(&reply)?).map_err(|e| format!("exchange: {e}"))?;
    Ok((order, q, reply.len()))
}

/// Where [`python_peer`] installs Py3AMF (under the repository's `target/`).
pub const PYTHON_TARGET: &str = "target/peers/amf-python";

/// What the Python AMF row needs, for its skip message.
pub const PYTHON_INSTALL: &str =
    "python3 with pip, which installs interop/amf/requirements.txt (Py3AMF) from PyPI on first use";

/// The Python AMF client (`interop/amf/amf_peer.py` on Py3AMF) as a command with `args`: Py3AMF
/// is installed with pip into [`PYTHON_TARGET`] on first use. `Err((skip, why))` when Python or
/// the install is missing, `skip` false under `CI` (where the row must run).
pub fn python_peer(args: &[&str]) -> Result<std::process::Command, (bool, String)> {
    use std::process::Command;
    let root = hessian_testkit::java::repo_root();
    let target = root.join(PYTHON_TARGET);
    let skip = std::env::var_os("CI").is_none();
    if !target.join("pyamf/remoting/__init__.py").exists() {
        let mut pip = Command::new("python3");
        pip.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--target"])
            .arg(&target)
            .arg("-r")
            .arg(root.join("interop/amf/requirements.txt"));
        match pip.output() {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                let err = String::from_utf8_lossy(&o.stderr);
                let tail: String = err.trim().chars().rev().take(400).collect::<Vec<_>>().into_iter().rev().collect();
                return Err((skip, format!("installing Py3AMF failed: {tail}; needs {PYTHON_INSTALL}")));
            }
            Err(e) => return Err((skip, format!("python3: {e}; needs {PYTHON_INSTALL}"))),
        }
    }
    let mut cmd = Command::new("python3");
    cmd.arg(root.join("interop/amf/amf_peer.py"))
        .args(args)
        .env("PYTHONPATH", &target)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn u29_and_integers_as_the_specification_writes_them() {
        let cases: [(i32, &str); 8] = [
            (0, "0400"),
            (0x7f, "047f"),
            (0x80, "048100"),
            (0x3fff, "04ff7f"),
            (0x4000, "04818000"),
            (0x1f_ffff, "04ffff7f"),
            (0x20_0000, "0480c08000"),
            (-1, "04ffffffff"),
        ];
        for (v, want) in cases {
            let mut w = Writer::default();
            w.int(v);
            assert_eq!(hex(&w.out), want, "{v}");
        }
        // beyond 29 bits: a double
        let mut w = Writer::default();
        w.int(1 << 28);
        assert_eq!(hex(&w.out), "0541b0000000000000");
    }

    #[test]
    fn the_get_items_request_packet_byte_for_byte() {
        let p = get_items_request(1).expect("packet");
        // version 3, no headers, one message: "bench.getItems", "/1", body length 7, then an
        // AMF0 strict array of one argument switched to AMF3, the integer 1
        let want = concat!(
            "0003",
            "0000",
            "0001",
            "000e",
            "62656e63682e6765744974656d73",
            "0002",
            "2f31",
            "00000008",
            "0a00000001",
            "11",
            "0401"
        );
        assert_eq!(hex(&p), want);
        // flash-lso reads it back
        let packet = parse(&p).expect("flash-lso reads it");
        let m = &packet.messages[0];
        assert_eq!((m.target_uri.as_str(), m.response_uri.as_str()), ("bench.getItems", "/1"));
        assert_eq!(arguments(&m.contents).expect("args"), &[Value::AMF3(Box::new(Value::Integer(1)))]);
    }

    #[test]
    fn an_item_byte_for_byte_with_traits_and_strings_by_reference() {
        let mut w = Writer::default();
        let item = Item::of(0);
        w.items(&[item.clone(), item]).expect("items");
        let b = &w.out;
        // array of 2, no associative part
        assert_eq!(hex(&b[..3]), "090501");
        // the first object: inline traits of 10 sealed properties (10 << 4 | 0b0011 = 163, a
        // two-byte U29), the class name (25 bytes)
        let name = ITEM.0.as_bytes();
        assert_eq!(hex(&b[3..7]), format!("0a8123{:02x}", (name.len() << 1) | 1));
        assert_eq!(&b[7..7 + name.len()], name);
        // the second object: traits reference 0 (0b01), then its first string by reference:
        // the name of item 0 is string 11 (class name 0, property names 1..=10)
        let second = b.len() - (2 + 4 * 2 + 9 + 2 + 9 + 9 + 2 * 10);
        assert_eq!(hex(&b[second..second + 10]), "0a01061606180 61a061c".replace(' ', ""));
        assert_eq!(hex(&b[second + 10..second + 21]), "05".to_owned() + &hex(&1e10f64.to_be_bytes()) + "0400");
        // and flash-lso reads both back as item 0
        let mut d = flash_lso::amf3::read::AMF3Decoder::default();
        let (rest, v) = d.parse_single_element(b).expect("flash-lso reads it");
        assert!(rest.is_empty());
        assert_eq!(items_from(&v).expect("items"), vec![Item::of(0), Item::of(0)]);
    }

    #[test]
    fn w1_and_w2_round_trip_through_flash_lso() {
        for n in [0, 1, 10, 300] {
            let p = packet(&[Message {
                target: "/1/onResult",
                response: "null",
                body: &{
                    let mut w = Writer::default();
                    w.out.push(AVMPLUS);
                    w.items(&structs::items(n)).expect("items");
                    w.out
                },
            }])
            .expect("packet");
            assert_eq!(items_from(&result(&p).expect("result")).expect("items"), structs::items(n));
        }
        let p = exchange_request(&w2::request()).expect("packet");
        let packet = parse(&p).expect("parse");
        let args = arguments(&packet.messages[0].contents).expect("args");
        assert_eq!(order_from(&args[0]).expect("order"), w2::request());
    }

    #[test]
    fn the_server_answers_calls_and_errors() {
        let (request, reply_order) = (w2::request(), w2::reply());
        let ok = answer(&exchange_request(&request).expect("request"), &request, &reply_order, false).expect("reply");
        assert_eq!(order_from(&result(&ok).expect("onResult")).expect("order"), reply_order);
        let items = answer(&get_items_request(3).expect("request"), &request, &reply_order, false).expect("reply");
        assert_eq!(items_from(&result(&items).expect("onResult")).expect("items"), structs::items(3));
        // a wrong order and an unknown method: onStatus replies with the reason
        let wrong = answer(&exchange_request(&reply_order).expect("request"), &request, &reply_order, false);
        let err = result(&wrong.expect("a reply")).expect_err("onStatus");
        assert!(err.contains("not the W2 request"), "{err}");
        let body = call_body(1, |w| {
            w.arg().int(1);
            Ok(())
        })
        .expect("body");
        let other = packet(&[Message { target: "bench.nothing", response: "/1", body: &body }]).expect("packet");
        let err = result(&answer(&other, &request, &reply_order, false).expect("a reply")).expect_err("onStatus");
        assert!(err.contains("no method"), "{err}");
        let neg = answer(&get_items_request(-1).expect("request"), &request, &reply_order, false).expect("reply");
        assert!(result(&neg).is_err_and(|e| e.contains("bad n")));
    }

    #[test]
    fn garbage_and_truncated_packets_are_refused_without_a_panic() {
        let (request, reply_order) = (w2::request(), w2::reply());
        let good = exchange_request(&request).expect("request");
        for cut in 0..good.len() {
            let r = answer(&good[..cut], &request, &reply_order, false);
            // a cut inside the body is either refused outright or answered onStatus
            if let Ok(reply) = r {
                assert!(result(&reply).is_err(), "cut at {cut} answered onResult");
            }
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in [1usize, 2, 7, 64, 1000] {
            for _ in 0..200 {
                let junk = hessian_testkit::junk(&mut seed, len);
                let _ = answer(&junk, &request, &reply_order, false);
                let mut framed = good[..20].to_vec();
                framed.extend(&junk);
                let _ = answer(&framed, &request, &reply_order, false);
            }
        }
        assert!(answer(b"", &request, &reply_order, false).is_err());
        assert!(answer(&vec![0; MAX_REQUEST + 1], &request, &reply_order, false).is_err_and(|e| e.contains("at most")));
    }

    #[test]
    fn deep_nesting_within_the_size_limit_does_not_overflow_the_servers_stack() {
        // the deepest value a request of MAX_REQUEST bytes can hold: nested AMF3 objects of one
        // property each, two bytes a level after the first (whose traits the others refer to);
        // read on a thread with the AMF server's stack
        let (request, reply_order) = (w2::request(), w2::reply());
        let depth = (MAX_REQUEST - 40) / 2;
        let mut body = vec![AMF0_STRICT_ARRAY, 0, 0, 0, 1, AVMPLUS, OBJECT, 0x13, 0x01, 0x03, b'a'];
        for _ in 1..depth {
            body.extend([OBJECT, 0x01]);
        }
        body.push(NULL);
        let p = packet(&[Message { target: "bench.exchange", response: "/1", body: &body }]).expect("packet");
        assert!(p.len() <= MAX_REQUEST);
        let t = std::thread::Builder::new()
            .stack_size(SERVER_STACK)
            .spawn(move || answer(&p, &request, &reply_order, false).map(|r| result(&r).is_err()))
            .expect("thread");
        assert_eq!(t.join().expect("no stack overflow"), Ok(true));
    }

    #[test]
    fn the_writer_writes_what_flash_lsos_encoder_writes() {
        // the same W1 list as a flash-lso value tree, through its packet writer (quadratic,
        // hence not used in the row, but a second implementation to compare the bytes with)
        use flash_lso::types::{ClassDefinition, ObjectValue};
        let items = structs::items(50);
        let def = ClassDefinition {
            name: ITEM.0.into(),
            attributes: Default::default(),
            static_properties: ITEM.1.iter().map(|s| s.to_string()).collect(),
        };
        let s = |s: &str| Value::String(s.to_owned());
        let date = |d: Date| Value::Date { time: d.0 as f64, timezone_or_utc: None };
        let values = items
            .iter()
            .enumerate()
            .map(|(k, i)| {
                let elements = vec![
                    Element::new("name", s(&i.name)),
                    Element::new("street", s(&i.street)),
                    Element::new("city", s(&i.city)),
                    Element::new("comment", s(&i.comment)),
                    Element::new("id", Value::Number(i.id as f64)),
                    Element::new("count", Value::Integer(i.count)),
                    Element::new("price", Value::Number(i.price)),
                    Element::new("ratio", Value::Number(f64::from(i.ratio))),
                    Element::new("created", date(i.created)),
                    Element::new("updated", date(i.updated)),
                ];
                let data = ObjectValue { class_definition: Some(def.clone()), elements };
                Value::Object { id: ObjectId(k as i64 + 1), data }
            })
            .collect();
        let contents = Value::AMF3(Box::new(Value::StrictArray { id: ObjectId(0), values }));
        let message =
            flash_lso::packet::Message { target_uri: "/1/onResult".into(), response_uri: "null".into(), contents };
        let theirs = flash_lso::packet::Packet {
            version: flash_lso::types::AMFVersion::AMF3,
            headers: Vec::new(),
            messages: vec![message],
        };
        let theirs = flash_lso::packet::write::write_to_bytes(&theirs, true).expect("flash-lso writes it");
        let ours = reply("/1", |w| w.items(&items)).expect("reply");
        assert_eq!(hex(&ours), hex(&theirs));
    }
}
