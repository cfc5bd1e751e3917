//! `hessian dump` for Burlap 1.0: one line per XML element, with its byte offset, the start of
//! its markup, and its meaning. A leaf (`<int>47</int>`, `<string>…</string>`, `<type>`,
//! `<method>`, …) takes one line with its decoded content; a container (`<burlap:call>`,
//! `<burlap:reply>`, `<fault>`, `<list>`, `<map>`, `<remote>`) opens a nesting level and its end
//! tag closes it. Lists and maps are numbered as reference targets, as the decoder numbers them.

use super::{preview, Trace};
use hessian::burlap::text;
use hessian::json::format_date;
use hessian::{Error, ErrorKind, Result};
use quick_xml::events::Event;
use std::io::Write;

/// What kind of element a container is, and how its children are labelled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Call,
    Reply,
    Fault,
    List,
    Map,
    Remote,
}

/// An open container: its kind, its element name, and how many values it holds so far.
struct Frame {
    kind: Kind,
    name: Vec<u8>,
    values: usize,
    /// In a call: the `<method>` was seen (the values that follow are arguments).
    method: bool,
    /// In a call: a `<header>` name was seen, its value comes next.
    header: bool,
}

fn container(name: &[u8]) -> Option<(Kind, &'static str)> {
    Some(match name {
        b"burlap:call" => (Kind::Call, "Burlap call"),
        b"burlap:reply" => (Kind::Reply, "Burlap reply"),
        b"fault" => (Kind::Fault, "fault"),
        b"list" => (Kind::List, "list"),
        b"map" => (Kind::Map, "map"),
        b"remote" => (Kind::Remote, "remote"),
        _ => return None,
    })
}

const LEAVES: &[&[u8]] = &[
    b"null", b"boolean", b"int", b"long", b"double", b"date", b"string", b"xml", b"base64", b"type", b"length", b"ref",
    b"method", b"header",
];

fn malformed(msg: impl Into<String>, at: usize) -> Error {
    Error::new(ErrorKind::Malformed(msg.into()), at as u64)
}

fn xml_err(e: quick_xml::Error, at: u64) -> Error {
    Error::new(ErrorKind::Malformed(format!("XML: {e}")), at)
}

/// The markup from `start` to `end`, on one line.
fn shown(data: &[u8], start: usize, end: usize) -> String {
    let raw = data.get(start..end).unwrap_or_default();
    String::from_utf8_lossy(raw).chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// Writes the trace of `data` to `out`. On malformed input the trace up to the bad element has
/// been written when the error (with its byte offset) is returned.
pub fn dump(data: &[u8], out: &mut dyn Write) -> Result<()> {
    let mut t = Trace::new(data, out)?;
    // Positions are counted from after a byte order mark, which the trace shows on a line of its
    // own.
    const BOM: &[u8] = b"\xef\xbb\xbf";
    let base = if data.starts_with(BOM) { BOM.len() } else { 0 };
    if base > 0 {
        t.pos = base;
        t.line(0, "", "UTF-8 byte order mark")?;
    }
    let mut xml = quick_xml::Reader::from_reader(&data[base..]);
    let cfg = xml.config_mut();
    cfg.trim_text(false);
    cfg.expand_empty_elements = false;
    cfg.check_end_names = true;
    let mut stack: Vec<Frame> = Vec::new();
    let mut refs: Vec<&'static str> = Vec::new();
    let mut top_values = 0usize;
    loop {
        let start = base + xml.buffer_position() as usize;
        let ev = xml.read_event().map_err(|e| xml_err(e, base as u64 + xml.error_position()))?;
        t.pos = base + xml.buffer_position() as usize;
        let empty = matches!(ev, Event::Empty(_));
        match ev {
            Event::Start(e) | Event::Empty(e) if container(e.name().as_ref()).is_some() => {
                let name = e.name().as_ref().to_vec();
                let Some((kind, what)) = container(&name) else { continue };
                let label = child_label(&mut stack, &name, &mut top_values, start)?;
                let mut meaning = what.to_owned();
                if matches!(kind, Kind::List | Kind::Map) {
                    meaning = format!("{what} (ref #{})", refs.len());
                    refs.push(what);
                }
                if empty {
                    meaning.push_str(", empty");
                }
                t.line_showing(start, &shown(data, start, t.pos), &label, &meaning)?;
                if !empty {
                    t.enter()?;
                    stack.push(Frame { kind, name, values: 0, method: false, header: false });
                }
            }
            Event::Start(e) | Event::Empty(e) => {
                let name = e.name().as_ref().to_vec();
                if !LEAVES.contains(&name.as_slice()) {
                    let n = String::from_utf8_lossy(&name).into_owned();
                    return Err(malformed(format!("unknown element <{n}>"), start));
                }
                let content = if empty { String::new() } else { leaf_text(&mut xml, &name, base)? };
                t.pos = base + xml.buffer_position() as usize;
                let label = child_label(&mut stack, &name, &mut top_values, start)?;
                let meaning = leaf_meaning(&name, &content, &refs, start)?;
                t.line_showing(start, &shown(data, start, t.pos), &label, &meaning)?;
            }
            Event::End(e) => {
                let Some(frame) = stack.pop() else {
                    return Err(malformed("end tag without a start tag", start));
                };
                if frame.name.as_slice() != e.name().as_ref() {
                    return Err(malformed("mismatched end tag", start));
                }
                t.leave();
                let what = container(&frame.name).map_or("element", |(_, w)| w);
                t.line_showing(start, &shown(data, start, t.pos), "", &format!("end of {what}"))?;
            }
            Event::Text(x) if x.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')) => {}
            Event::Comment(_) => t.line_showing(start, &shown(data, start, t.pos), "", "comment")?,
            Event::Decl(_) => t.line_showing(start, &shown(data, start, t.pos), "", "XML declaration")?,
            Event::PI(_) => t.line_showing(start, &shown(data, start, t.pos), "", "processing instruction")?,
            Event::DocType(_) => return Err(malformed("document type declarations are not allowed", start)),
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                return Err(malformed("text outside a value element", start))
            }
            Event::Eof => break,
        }
    }
    if !stack.is_empty() {
        return Err(Error::new(ErrorKind::UnexpectedEof, data.len() as u64));
    }
    if top_values == 0 {
        return Err(Error::new(ErrorKind::UnexpectedEof, data.len() as u64));
    }
    Ok(())
}

/// The label of the next child of the innermost container (`[2] `, `key `, `arg[0] `, …), and
/// the count of values it holds updated; at the top, only one value is allowed.
fn child_label(stack: &mut [Frame], name: &[u8], top_values: &mut usize, at: usize) -> Result<String> {
    let Some(f) = stack.last_mut() else {
        *top_values += 1;
        if *top_values > 1 {
            return Err(Error::new(ErrorKind::TrailingBytes, at as u64));
        }
        return Ok(String::new());
    };
    // Markers that are not values: types, lengths, the method and header names.
    if matches!(name, b"type" | b"length" | b"method" | b"header") {
        if name == b"method" {
            f.method = true;
        }
        if name == b"header" {
            f.header = true;
        }
        return Ok(String::new());
    }
    let i = f.values;
    f.values += 1;
    Ok(match f.kind {
        Kind::List => format!("[{i}] "),
        Kind::Map | Kind::Fault => (if i % 2 == 0 { "key " } else { "value " }).to_owned(),
        Kind::Remote => "url ".to_owned(),
        Kind::Reply => String::new(),
        Kind::Call if f.header => {
            f.header = false;
            f.values -= 1;
            "  value ".to_owned()
        }
        Kind::Call if f.method => format!("arg[{}] ", i),
        Kind::Call => String::new(),
    })
}

/// The character data of a leaf element after its start tag, up to its end tag, with the
/// predefined entities and character references resolved.
fn leaf_text(xml: &mut quick_xml::Reader<&[u8]>, name: &[u8], base: usize) -> Result<String> {
    let mut out = Vec::new();
    loop {
        let at = base as u64 + xml.buffer_position();
        match xml.read_event().map_err(|e| xml_err(e, base as u64 + xml.error_position()))? {
            Event::Text(x) => out.extend_from_slice(&x),
            Event::CData(x) => out.extend_from_slice(&x),
            Event::GeneralRef(r) => {
                let r: &[u8] = &r;
                let c = match r {
                    b"lt" => Some('<'),
                    b"gt" => Some('>'),
                    b"amp" => Some('&'),
                    b"apos" => Some('\''),
                    b"quot" => Some('"'),
                    _ => r.strip_prefix(b"#").and_then(char_ref),
                };
                let Some(c) = c else {
                    let shown = String::from_utf8_lossy(r).into_owned();
                    return Err(malformed(format!("unknown entity &{shown};"), at as usize));
                };
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
            Event::Comment(_) | Event::PI(_) => {}
            Event::End(e) if e.name().as_ref() == name => return Ok(String::from_utf8_lossy(&out).into_owned()),
            Event::Eof => return Err(Error::new(ErrorKind::UnexpectedEof, base as u64 + xml.buffer_position())),
            _ => {
                let n = String::from_utf8_lossy(name).into_owned();
                return Err(malformed(format!("unexpected markup inside <{n}>"), at as usize));
            }
        }
    }
}

fn char_ref(num: &[u8]) -> Option<char> {
    let s = std::str::from_utf8(num).ok()?;
    let c = match s.strip_prefix('x') {
        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
        None => s.parse().ok()?,
    };
    char::from_u32(c)
}

/// What a leaf element with content `s` means, checked the way the decoder checks it.
fn leaf_meaning(name: &[u8], s: &str, refs: &[&str], at: usize) -> Result<String> {
    let bad = |what: &str| malformed(format!("bad {what} {:?}", s.trim()), at);
    let trimmed = s.trim();
    Ok(match name {
        b"null" => "null".into(),
        b"boolean" => match trimmed {
            "1" => "true".into(),
            "0" => "false".into(),
            _ => return Err(bad("boolean")),
        },
        b"int" => format!("int {}", trimmed.parse::<i32>().map_err(|_| bad("int"))?),
        b"long" => format!("long {}", trimmed.parse::<i64>().map_err(|_| bad("long"))?),
        b"double" => format!("double {:?}", text::parse_java_double(trimmed).ok_or_else(|| bad("double"))?),
        b"date" => {
            let ms = text::parse_date(trimmed).ok_or_else(|| bad("date"))?;
            format!("date {}", format_date(ms).unwrap_or_else(|| format!("{ms} ms")))
        }
        b"string" => format!("string ({} chars) {}", s.chars().count(), preview(s)),
        b"xml" => format!("xml ({} chars) {}", s.chars().count(), preview(s)),
        b"base64" => {
            let mut bytes = Vec::new();
            text::decode_base64(s.as_bytes(), &mut bytes).ok_or_else(|| bad("base64"))?;
            format!("binary ({} bytes)", bytes.len())
        }
        b"type" => format!("type {}", preview(s)),
        b"length" => format!("length {}", trimmed.parse::<i32>().map_err(|_| bad("length"))?),
        b"ref" => {
            let i = trimmed.parse::<i32>().map_err(|_| bad("ref"))?;
            match usize::try_from(i).ok().and_then(|i| refs.get(i)) {
                Some(what) => format!("ref #{i} -> {what}"),
                None => {
                    return Err(Error::new(ErrorKind::RefOutOfRange { index: i as u64, len: refs.len() }, at as u64))
                }
            }
        }
        b"method" => format!("method {}", preview(s)),
        _ => format!("header {}", preview(s)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hessian::{burlap, Call, Value};

    fn trace(data: &[u8]) -> (String, Result<()>) {
        let mut out = Vec::new();
        let r = dump(data, &mut out);
        (String::from_utf8(out).unwrap(), r)
    }

    fn has(t: &str, needles: &[&str]) {
        for n in needles {
            assert!(t.contains(n), "missing {n:?} in\n{t}");
        }
    }

    #[test]
    fn values_and_envelopes() {
        let m = Value::typed_map("Money", vec![(Value::string("cents"), Value::Int(5))]);
        let v = Value::list(vec![m, Value::Ref(1), Value::Binary(vec![1, 2]), Value::Date(0), Value::string("a<b")]);
        let (t, r) = trace(&burlap::to_vec(&v).unwrap());
        r.unwrap();
        has(
            &t,
            &[
                "00000000  <list>                   list (ref #0)",
                "length 5",
                "[0] map (ref #1)",
                "type \"Money\"",
                "key string (5 chars) \"cents\"",
                "value int 5",
                "end of map",
                "[1] ref #1 -> map",
                "[2] binary (2 bytes)",
                "[3] date 1970-01-01T00:00:00Z",
                "[4] string (3 chars) \"a<b\"",
                "end of list",
            ],
        );
        let mut call = Call::new("add2", vec![Value::Int(1), Value::Null]);
        call.headers.push(("trace".into(), Value::string("t-1")));
        let (t, r) = trace(&burlap::call_to_vec(&call).unwrap());
        r.unwrap();
        has(&t, &["Burlap call", "header \"trace\"", "value string", "method \"add2\"", "arg[0] int 1", "arg[1] null"]);
        let (t, r) = trace(&burlap::reply_to_vec(&Err(hessian::Fault::new("E", "boom"))).unwrap());
        r.unwrap();
        has(&t, &["Burlap reply", "  fault", "key string (4 chars) \"code\"", "end of fault", "end of Burlap reply"]);
    }

    #[test]
    fn stops_at_bad_input_with_offset() {
        let (t, r) = trace(b"<list><int>1</int><int>x</int></list>");
        assert!(t.contains("[0] int 1"), "{t}");
        assert_eq!(r.unwrap_err().offset(), 18);
        let (_, r) = trace(b"<list><int>1</int>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedEof));
        let (_, r) = trace(b"<ref>0</ref>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::RefOutOfRange { .. }));
        let (_, r) = trace(b"<int>1</int><int>2</int>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::TrailingBytes));
        let (_, r) = trace(b"<foo/>");
        assert!(r.unwrap_err().to_string().contains("unknown element <foo>"));
        let (_, r) = trace(b"<int>1</in>");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::Malformed(_)));
        let (_, r) = trace(b"");
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::UnexpectedEof));
        let (_, r) = trace(&b"<list>".repeat(100_000));
        assert!(matches!(r.unwrap_err().kind(), ErrorKind::LimitExceeded { .. }));
    }
}
