//! `hessian dump`: an annotated trace of every token (offset, raw bytes, meaning), indented by
//! nesting, in the spirit of Caucho's `HessianDebugInputStream`, for each format.
//!
//! There is one walk for the three formats ([`Walk`]), generic over the token layer
//! ([`TokenRead`]) that the serde deserializer reads through: every value is read by the
//! format's own decoder, with its checks, limits, references and class definitions, so the trace
//! accepts exactly what the decoder accepts and stops where it stops, with everything before the
//! bad token already printed. The trace shows the bytes each token took; what the token layer
//! reads whole, it shows in detail from those bytes (the chunks of a long string or binary, the
//! comments and declarations between Burlap elements). Each format adds its envelopes and its
//! wording ([`Dumped`], in `h2.rs`, `h1.rs`, `burlap.rs`). [`Trace`] is the line layout.

pub mod burlap;
pub mod h1;
pub mod h2;

use hessian::json::format_date;
use hessian::kind::Kind;
use hessian::message::{CallItem, ReplyItem};
use hessian::read::{Read, SliceRead};
use hessian::token::{Scalar, TokenRead};
use hessian::{Error, ErrorKind, Result};
use std::io::Write;

/// Raw bytes shown per line; longer tokens are cut with `..`.
const HEX_BYTES: usize = 8;
/// Width of the raw-bytes column.
const BYTES_WIDTH: usize = HEX_BYTES * 3 - 1;
/// Characters of string content shown per line.
const PREVIEW_CHARS: usize = 48;

/// A string as the trace shows it: quoted, escaped, cut after [`PREVIEW_CHARS`] characters.
pub fn preview(s: &str) -> String {
    let mut p: String = s.chars().take(PREVIEW_CHARS).collect();
    let cut = p.len() < s.len();
    p = format!("{p:?}");
    if cut {
        p.push('…');
    }
    p
}

/// Where the lines go, and how they look: the input, the nesting, and how bytes are shown (in
/// hex, or as markup for Burlap).
pub struct Trace<'a, 'o> {
    data: &'a [u8],
    out: &'o mut dyn Write,
    /// Current nesting (two spaces of indentation each).
    depth: usize,
    /// Whether the input is text (Burlap): bytes are shown as markup, and what lies between
    /// elements (a byte order mark, comments, declarations) gets lines of its own.
    text: bool,
    /// Offset up to which the input has been shown.
    shown: usize,
}

impl<'a, 'o> Trace<'a, 'o> {
    /// A trace of `data` into `out`; writes the column header line.
    pub fn new(data: &'a [u8], out: &'o mut dyn Write, text: bool) -> Result<Self> {
        let mut t = Trace { data, out, depth: 0, text, shown: 0 };
        t.write(&format!("{:<8}  {:<BYTES_WIDTH$}  meaning", "offset", "bytes"))?;
        Ok(t)
    }

    fn write(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}").map_err(|e| Error::new(ErrorKind::Io(e), self.shown as u64))
    }

    /// The bytes from `start` to `end` as the bytes column shows them, cut to fit.
    fn shown(&self, start: usize, end: usize) -> String {
        let bytes = self.data.get(start..end.max(start)).unwrap_or_default();
        let shown = if self.text {
            String::from_utf8_lossy(bytes).chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
        } else {
            let mut hex: Vec<String> = bytes.iter().take(HEX_BYTES).map(|b| format!("{b:02x}")).collect();
            if bytes.len() > HEX_BYTES {
                hex.truncate(HEX_BYTES - 1);
                hex.push("..".into());
            }
            hex.join(" ")
        };
        if shown.chars().count() > BYTES_WIDTH {
            let mut s: String = shown.chars().take(BYTES_WIDTH - 2).collect();
            s.push_str("..");
            s
        } else {
            shown
        }
    }

    /// One trace line for the bytes from `start` to `end`; in text, lines for what lies between
    /// the last line shown and `start` first.
    pub fn line(&mut self, start: u64, end: u64, label: &str, meaning: &str) -> Result<()> {
        let (start, end) = (start as usize, end as usize);
        if self.text {
            self.between(start)?;
        }
        let shown = self.shown(start, end);
        let indent = "  ".repeat(self.depth);
        self.write(&format!("{start:08x}  {shown:<BYTES_WIDTH$}  {indent}{label}{meaning}"))?;
        self.shown = self.shown.max(end);
        Ok(())
    }

    /// A line about the token above it, without bytes of its own (the parts of a class
    /// definition the decoder reads whole).
    pub fn note(&mut self, meaning: &str) -> Result<()> {
        let indent = "  ".repeat(self.depth + 1);
        self.write(&format!("{:<8}  {:<BYTES_WIDTH$}  {indent}{meaning}", "", ""))
    }

    /// Lines for what a text input holds between elements, from the last line shown to `to`: a
    /// byte order mark, comments, declarations and processing instructions (whitespace is not
    /// shown). The decoder has read past them; this only shows them.
    pub fn between(&mut self, to: usize) -> Result<()> {
        let mut at = self.shown;
        while at < to {
            let rest = self.data.get(at..to).unwrap_or_default();
            let (len, what) = if rest.starts_with(b"\xef\xbb\xbf") {
                (3, "UTF-8 byte order mark")
            } else if rest.starts_with(b"<!--") {
                (find(rest, b"-->").map_or(rest.len(), |i| i + 3), "comment")
            } else if rest.starts_with(b"<?xml") {
                (find(rest, b"?>").map_or(rest.len(), |i| i + 2), "XML declaration")
            } else if rest.starts_with(b"<?") {
                (find(rest, b"?>").map_or(rest.len(), |i| i + 2), "processing instruction")
            } else {
                at += 1;
                continue;
            };
            self.shown = at;
            // (a byte order mark shows as its bytes: as text it is invisible)
            let shown = if len == 3 && rest.starts_with(b"\xef\xbb\xbf") {
                "ef bb bf".to_owned()
            } else {
                self.shown(at, at + len)
            };
            let indent = "  ".repeat(self.depth);
            self.write(&format!("{at:08x}  {shown:<BYTES_WIDTH$}  {indent}{what}"))?;
            at += len;
        }
        self.shown = self.shown.max(to);
        Ok(())
    }

    /// One nesting level deeper.
    pub fn indent(&mut self) {
        self.depth += 1;
    }

    /// One nesting level up.
    pub fn outdent(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// One chunk of a string or binary value as its bytes hold it.
#[derive(Debug)]
pub struct ChunkHeader {
    /// Bytes of the chunk's header (code and length).
    pub len: usize,
    /// UTF-16 units (strings) or bytes (binaries) of data that follow the header.
    pub units: usize,
    /// Whether it is the final chunk.
    pub last: bool,
}

/// What a format adds to the one walk: its wording and the detail the token layer reads whole.
/// The defaults are those of a format without class definitions or type references.
pub trait Dumped<'de>: TokenRead<'de> {
    /// Whether string lengths are counted in UTF-16 units (Hessian) rather than characters
    /// (Burlap's text).
    const UTF16: bool;

    /// Reads and traces what the format puts before a value's opening (Hessian 2's class
    /// definitions).
    fn before_value(&mut self, t: &mut Trace) -> Result<()> {
        let _ = t;
        Ok(())
    }

    /// The form a leaf whose bytes are `bytes` was written in, when the format has several
    /// (Hessian 2's compact doubles and dates).
    fn form(bytes: &[u8]) -> Option<&'static str> {
        let _ = bytes;
        None
    }

    /// Whether the string whose bytes are `bytes` is XML.
    fn is_xml(bytes: &[u8]) -> bool;

    /// The header of the string (`string`) or binary chunk that `bytes` start with, if the
    /// format writes chunks.
    fn chunk_header(bytes: &[u8], string: bool) -> Option<ChunkHeader> {
        let _ = (bytes, string);
        None
    }

    /// How many type names the message has defined so far (Hessian 2's type references).
    fn type_count(&self) -> usize {
        0
    }

    /// The number of a type name defined before (Hessian 2).
    fn type_index(&self, name: &str) -> Option<usize> {
        let _ = name;
        None
    }

    /// Offset just past the last token read (in Burlap, not counting an element the decoder
    /// has looked at ahead).
    fn read_to(&self) -> u64 {
        self.offset()
    }

    /// The class name of class definition `class` (Hessian 2).
    fn class_name(&self, class: usize) -> String {
        let _ = class;
        String::new()
    }
}

/// The envelopes of Hessian 1 and Burlap, read piece by piece by the decoders (calls and
/// replies with headers; Hessian 2's envelope has none and is walked in `h2.rs`).
pub trait Envelope<'de>: Dumped<'de> {
    /// How the trace names a call and a reply (`call`, `Burlap call`).
    const CALL: &'static str;
    /// How the trace names a reply.
    const REPLY: &'static str;
    /// Reads a call's opening; what the trace says about it.
    fn call_start(&mut self) -> Result<String>;
    /// Reads a header's or the method's name.
    fn call_item(&mut self) -> Result<CallItem>;
    /// Whether the call's end is next.
    fn at_call_end(&mut self) -> Result<bool>;
    /// Reads the call's end.
    fn call_end(&mut self) -> Result<()>;
    /// Reads a reply's opening; what the trace says about it.
    fn reply_start(&mut self) -> Result<String>;
    /// Reads what comes next in a reply.
    fn reply_item(&mut self) -> Result<ReplyItem>;
    /// Reads the reply's end.
    fn reply_end(&mut self) -> Result<()>;
}

/// The one walk over the values of a format: a decoder over the whole input and the trace it
/// writes.
pub struct Walk<'a, 'o, D> {
    /// The trace lines go to.
    pub t: Trace<'a, 'o>,
    /// The format's decoder over the whole input.
    pub dec: D,
    /// What each reference number points at (`list`, `map "Money"`, `object "Money"`), as the
    /// decoder numbers them.
    refs: Vec<String>,
}

impl<'a, 'o, D: Dumped<'a>> Walk<'a, 'o, D> {
    /// A walk of `data` with `dec`, a decoder over it.
    pub fn new(data: &'a [u8], out: &'o mut dyn Write, dec: D, text: bool) -> Result<Self> {
        Ok(Walk { t: Trace::new(data, out, text)?, dec, refs: Vec::new() })
    }

    /// A line for the bytes from `start` to where the decoder is.
    pub fn line(&mut self, start: u64, label: &str, meaning: &str) -> Result<()> {
        let end = self.dec.read_to();
        self.t.line(start, end, label, meaning)
    }

    /// Where the next token starts (after what Burlap skips between elements).
    pub fn next_at(&mut self) -> Result<u64> {
        Ok(self.dec.peek()?.1)
    }

    /// One value, labelled `label` (`[2] `, `key `, `arg[0] `, …).
    pub fn value(&mut self, label: &str) -> Result<()> {
        self.dec.before_value(&mut self.t)?;
        let (open, at) = self.dec.open()?;
        match D::kind(open) {
            Kind::List => self.list(open, at, label),
            Kind::Map => self.map(open, at, label),
            Kind::Object => self.object(open, at, label),
            Kind::ClassDef | Kind::Invalid => Err(self.dec.invalid(open)),
            kind => self.leaf(kind, open, at, label),
        }
    }

    fn leaf(&mut self, kind: Kind, open: D::Open, at: u64, label: &str) -> Result<()> {
        let meaning = match self.dec.scalar(open)? {
            Scalar::Null => "null".to_owned(),
            Scalar::Bool(b) => b.to_string(),
            Scalar::Int(i) => format!("int {i}"),
            Scalar::Long(l) => format!("long {l}"),
            Scalar::Double(d) => format!("double {d:?}"),
            Scalar::Date(ms) => format!("date {}", format_date(ms).unwrap_or_else(|| format!("{ms} ms"))),
            Scalar::Str(s) => {
                let n = if D::UTF16 { s.encode_utf16().count() } else { s.chars().count() };
                format!("({n} {}) {}", if D::UTF16 { "units" } else { "chars" }, preview(&s))
            }
            Scalar::Bytes(b) => format!("({} bytes)", b.len()),
            Scalar::Ref(i) => {
                let what = self.refs.get(i as usize).map_or("?", String::as_str);
                format!("ref #{i} -> {what}")
            }
            Scalar::Remote(r) => format!("remote, type {}, url {}", preview(&r.type_name), preview(&r.url)),
        };
        let end = self.dec.read_to();
        let bytes = self.t.data.get(at as usize..end as usize).unwrap_or_default();
        match kind {
            Kind::String | Kind::Binary => {
                let what = match kind {
                    Kind::Binary => "binary",
                    _ if D::is_xml(bytes) => "xml",
                    _ => "string",
                };
                self.chunked(at, bytes, what, label, &meaning)
            }
            _ => {
                let meaning = match D::form(bytes) {
                    Some(form) => format!("{meaning} ({form})"),
                    None => meaning,
                };
                self.line(at, label, &meaning)
            }
        }
    }

    /// A string or binary value at `at` whose bytes are `bytes`: one line, or one per chunk.
    fn chunked(&mut self, at: u64, bytes: &[u8], what: &str, label: &str, whole: &str) -> Result<()> {
        let string = what != "binary";
        let mut chunks = Vec::new();
        let mut pos = 0;
        while let Some(h) = bytes.get(pos..).and_then(|rest| D::chunk_header(rest, string)) {
            let data = pos + h.len;
            let mut text = String::new();
            let len = if string {
                // (the decoder has checked these bytes; a surrogate pair split across chunks
                // shows as two halves)
                let mut r = SliceRead::new(bytes.get(data..).unwrap_or_default());
                let _ = r.append_str(h.units, &mut text, &mut None);
                r.offset() as usize
            } else {
                h.units
            };
            chunks.push((pos, h.units, text));
            pos = data + len;
            if h.last || pos >= bytes.len() {
                break;
            }
        }
        if chunks.len() < 2 {
            return self.line(at, label, &format!("{what} {whole}"));
        }
        let unit = if string { "units" } else { "bytes" };
        let (mut total, n) = (0, chunks.len());
        for (i, (start, units, text)) in chunks.iter().enumerate() {
            total += units;
            let end = chunks.get(i + 1).map_or(bytes.len(), |c| c.0);
            let text = if string { format!(" {}", preview(text)) } else { String::new() };
            let meaning = if i + 1 < n {
                format!("{what} chunk ({units} {unit}, more follow){text}")
            } else {
                format!("final {what} chunk ({units} {unit}; {total} in all){text}")
            };
            let label = if i == 0 { label } else { "" };
            self.t.line(at + *start as u64, at + end as u64, label, &meaning)?;
        }
        Ok(())
    }

    /// A type name as the trace shows it: defined by the header just read when the count of
    /// type names grew past `types_before`, else a reference to one defined before.
    fn type_text(&self, name: &str, types_before: usize) -> String {
        let count = self.dec.type_count();
        if count > types_before {
            format!("type {} (defines type #{})", preview(name), count - 1)
        } else if let Some(i) = self.dec.type_index(name) {
            format!("type #{i} {}", preview(name))
        } else {
            format!("type {}", preview(name))
        }
    }

    fn list(&mut self, open: D::Open, at: u64, label: &str) -> Result<()> {
        let types = self.dec.type_count();
        let (head, type_name) = self.dec.list_head_with_type(open)?;
        let r = self.refs.len();
        self.refs.push("list".into());
        let mut meaning = format!("list (ref #{r})");
        if let Some(t) = type_name {
            meaning = format!("{meaning}, {}", self.type_text(&t, types));
        }
        meaning.push_str(&match head.len {
            Some(n) if head.counted => format!(", {n} items"),
            Some(n) => format!(", length {n}"),
            None if head.closed => ", empty".into(),
            None => ", variable length".into(),
        });
        self.line(at, label, &meaning)?;
        if head.closed {
            return Ok(());
        }
        self.enter()?;
        match head.len {
            Some(n) if head.counted => {
                for i in 0..n {
                    self.value(&format!("[{i}] "))?;
                }
            }
            _ => {
                let mut i = 0;
                loop {
                    let (next, end_at) = self.dec.peek()?;
                    if next.is_none() {
                        self.dec.close()?;
                        self.dec.check_list_len(head.len, i)?;
                        self.line(end_at, "", "end of list")?;
                        break;
                    }
                    self.dec.check_count(i)?;
                    self.value(&format!("[{i}] "))?;
                    i += 1;
                }
            }
        }
        self.leave();
        Ok(())
    }

    fn map(&mut self, open: D::Open, at: u64, label: &str) -> Result<()> {
        let types = self.dec.type_count();
        let head = self.dec.map_head(open)?;
        let r = self.refs.len();
        let mut meaning = format!("map (ref #{r})");
        match &head.type_name {
            Some(t) => {
                self.refs.push(format!("map {}", preview(t)));
                meaning = format!("{meaning}, {}", self.type_text(t, types));
            }
            None => self.refs.push("map".into()),
        }
        if head.closed {
            meaning.push_str(", empty");
        }
        self.line(at, label, &meaning)?;
        if head.closed {
            return Ok(());
        }
        self.enter()?;
        self.entries("end of map")?;
        self.leave();
        Ok(())
    }

    /// Key/value pairs up to and with the end mark, traced as `end` (maps and faults).
    pub fn entries(&mut self, end: &str) -> Result<()> {
        let mut n = 0;
        loop {
            let (next, end_at) = self.dec.peek()?;
            if next.is_none() {
                self.dec.close()?;
                self.line(end_at, "", end)?;
                return Ok(());
            }
            self.dec.check_count(n)?;
            self.value("key ")?;
            self.value("value ")?;
            n += 1;
        }
    }

    fn object(&mut self, open: D::Open, at: u64, label: &str) -> Result<()> {
        let class = self.dec.object_head(open)?;
        let name = self.dec.class_name(class);
        let r = self.refs.len();
        self.refs.push(format!("object {}", preview(&name)));
        self.line(at, label, &format!("object (ref #{r}) of class #{class} {}", preview(&name)))?;
        self.enter()?;
        for f in self.dec.class_fields(class).to_vec() {
            self.value(&format!("{f}: "))?;
        }
        self.leave();
        Ok(())
    }

    /// A call: its opening, the headers (name, value), the method, the arguments, its end.
    pub fn call(&mut self) -> Result<()>
    where
        D: Envelope<'a>,
    {
        let at = self.next_at()?;
        let meaning = self.dec.call_start()?;
        self.line(at, "", &meaning)?;
        self.enter()?;
        loop {
            let at = self.next_at()?;
            match self.dec.call_item()? {
                CallItem::Header(name) => {
                    self.line(at, "", &format!("header {}", preview(&name)))?;
                    self.value("  value ")?;
                }
                CallItem::Method(name) => {
                    self.line(at, "", &format!("method {}", preview(&name)))?;
                    let mut i = 0;
                    while !self.dec.at_call_end()? {
                        self.value(&format!("arg[{i}] "))?;
                        i += 1;
                    }
                    break;
                }
            }
        }
        self.leave();
        let at = self.next_at()?;
        self.dec.call_end()?;
        self.line(at, "", &format!("end of {}", D::CALL))
    }

    /// A reply: its opening, the headers, a value or a fault's entries, its end.
    pub fn reply(&mut self) -> Result<()>
    where
        D: Envelope<'a>,
    {
        let at = self.next_at()?;
        let meaning = self.dec.reply_start()?;
        self.line(at, "", &meaning)?;
        self.enter()?;
        loop {
            let at = self.next_at()?;
            match self.dec.reply_item()? {
                ReplyItem::Header(name) => {
                    self.line(at, "", &format!("header {}", preview(&name)))?;
                    self.value("  value ")?;
                }
                ReplyItem::Fault => {
                    self.line(at, "", "fault")?;
                    self.enter()?;
                    self.entries("end of fault")?;
                    self.leave();
                    break;
                }
                ReplyItem::Value => {
                    self.value("")?;
                    break;
                }
            }
        }
        self.leave();
        let at = self.next_at()?;
        self.dec.reply_end()?;
        self.line(at, "", &format!("end of {}", D::REPLY))
    }

    /// Into a list, map, object or envelope: the decoder's depth limit, one more indentation.
    pub fn enter(&mut self) -> Result<()> {
        self.dec.enter()?;
        self.t.indent();
        Ok(())
    }

    /// Out of a list, map, object or envelope.
    pub fn leave(&mut self) {
        self.dec.leave();
        self.t.outdent();
    }

    /// The end of the input: fails unless it is exhausted; in text, what follows the last
    /// element is shown.
    pub fn end(&mut self) -> Result<()> {
        self.dec.end()?;
        if self.t.text {
            self.t.between(self.t.data.len())?;
        }
        Ok(())
    }
}

/// What the walkers' tests share: a walk's trace as text with its result, and a check that a
/// trace holds every needle.
#[cfg(test)]
pub(crate) mod test_util {
    /// Runs `walk` over `data`: the trace it wrote and its result.
    pub(crate) fn trace_of(
        walk: fn(&[u8], &mut dyn std::io::Write) -> hessian::Result<()>,
        data: &[u8],
    ) -> (String, hessian::Result<()>) {
        let mut out = Vec::new();
        let r = walk(data, &mut out);
        (String::from_utf8(out).expect("a trace is UTF-8"), r)
    }

    /// Fails unless `t` contains every one of `needles`.
    pub(crate) fn has(t: &str, needles: &[&str]) {
        for n in needles {
            assert!(t.contains(n), "missing {n:?} in\n{t}");
        }
    }
}

#[cfg(test)]
mod tests {
    use hessian::{h1, h2, Call, ClassDef, Fault, Value};

    /// A dump function of one format.
    type Walk = fn(&[u8], &mut dyn std::io::Write) -> hessian::Result<()>;

    /// Every walker, on truncations and byte flips of valid inputs and on random bytes, returns
    /// (a trace and maybe an error) and never panics.
    #[test]
    fn walkers_never_panic_on_mangled_input() {
        let money = ClassDef::new("Money", ["cents", "text"]);
        let v = Value::list(vec![
            Value::object(money, vec![Value::Int(1), Value::string("é😀x")]),
            Value::Ref(1),
            Value::typed_map("T", vec![(Value::Long(1), Value::Date(86_400_000))]),
            Value::Binary(vec![0; 40]),
            Value::Double(1.5),
        ]);
        let call = Call::new("m", vec![v.clone(), Value::Null]);
        let h1v = hessian::convert::to_h1(&v);
        let inputs: Vec<(Walk, Vec<u8>)> = vec![
            (super::h2::dump, h2::to_vec(&v).unwrap()),
            (super::h1::dump, h1::to_vec(&h1v).unwrap()),
            (super::h1::dump, h1::call_to_vec_versioned(&Call::new("m", vec![h1v.clone()]), 2).unwrap()),
            (super::h1::dump, h1::reply_to_vec(&Err(Fault::new("E", "m"))).unwrap()),
            (super::burlap::dump, hessian::burlap::to_vec(&h1v).unwrap()),
            (super::burlap::dump, hessian::burlap::call_to_vec(&call_h1(&call)).unwrap()),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move || hessian_testkit::xorshift(&mut seed);
        for (walk, good) in &inputs {
            let mut out = Vec::new();
            walk(good, &mut out).unwrap();
            for cut in 0..good.len() {
                let _ = walk(&good[..cut], &mut Vec::new());
            }
            for _ in 0..300 {
                let mut bad = good.clone();
                let i = rand() as usize % bad.len();
                bad[i] = rand() as u8;
                let _ = walk(&bad, &mut Vec::new());
            }
            for _ in 0..100 {
                let junk: Vec<u8> = (0..rand() % 64).map(|_| rand() as u8).collect();
                let _ = walk(&junk, &mut Vec::new());
            }
        }
    }

    fn call_h1(c: &Call) -> Call {
        Call::new(c.method.clone(), c.args.iter().map(hessian::convert::to_h1).collect())
    }
}
