//! Burlap 1.0 decoder on the streaming XML reader of `quick-xml`: accepts what `BurlapOutput`
//! writes (and whitespace between elements, comments, an XML declaration and empty-element tags
//! such as `<null/>`), with typed errors carrying byte offsets and the same [`Limits`] as the
//! binary decoders.
//!
//! Safety against hostile XML: a document type declaration (`<!DOCTYPE`, where entity definitions
//! live) is refused, and only the five predefined entities and numeric character references are
//! resolved, so nothing ever expands.

use super::text;
use crate::envelope::{Call, CallHeader, CallItem, Fault, RawReply, Reply, ReplyItem};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::java_utf8;
use crate::kind::Kind;
use crate::read::{finish_str, Read, Reference, SliceRead};
use crate::token::{forward_token_read, read_whole, ListHead, MapHead, Scalar, TokenRead};
use crate::value::{List, Map, Remote, Value};
use quick_xml::events::Event;
use std::io::BufRead;

/// The element names of Burlap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    Null,
    Boolean,
    Int,
    Long,
    Double,
    Date,
    String,
    Base64,
    Xml,
    List,
    Map,
    Type,
    Length,
    Ref,
    Remote,
    Call,
    Reply,
    Fault,
    Header,
    Method,
    Unknown,
}

fn tag(name: &[u8]) -> Tag {
    match name {
        b"null" => Tag::Null,
        b"boolean" => Tag::Boolean,
        b"int" => Tag::Int,
        b"long" => Tag::Long,
        b"double" => Tag::Double,
        b"date" => Tag::Date,
        b"string" => Tag::String,
        b"base64" => Tag::Base64,
        b"xml" => Tag::Xml,
        b"list" => Tag::List,
        b"map" => Tag::Map,
        b"type" => Tag::Type,
        b"length" => Tag::Length,
        b"ref" => Tag::Ref,
        b"remote" => Tag::Remote,
        b"burlap:call" => Tag::Call,
        b"burlap:reply" => Tag::Reply,
        b"fault" => Tag::Fault,
        b"header" => Tag::Header,
        b"method" => Tag::Method,
        _ => Tag::Unknown,
    }
}

/// One structural token: a start tag, an end tag, an empty-element tag, or the end of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Start(Tag),
    End(Tag),
    Empty(Tag),
    Eof,
}

/// Reads Burlap values and envelopes from any `BufRead` (a byte slice is one).
pub struct Decoder<R: BufRead> {
    xml: quick_xml::Reader<R>,
    buf: Vec<u8>,
    text: Vec<u8>,
    peeked: Option<Tok>,
    limits: Limits,
    refs: usize,
    depth: usize,
    /// Offset of the input's first byte in the message (non-zero while the serde deserializer
    /// re-reads a referenced value from where it starts).
    base: u64,
    /// Offset of the `<` of the last token [`next_tok`](Self::next_tok) returned.
    tok_start: u64,
    /// A string read from text that is not standard UTF-8 (Java's surrogate pairs), re-encoded.
    str_scratch: String,
    /// The bytes of the last `<base64>` read.
    bytes: Vec<u8>,
    /// The complete input, when it can be read again from an earlier offset (a slice).
    origin: Option<R>,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for &[u8] {}
    impl<R: std::io::Read> Sealed for std::io::BufReader<R> {}
}

/// The inputs a Burlap [`Decoder`] reads through [`TokenRead`]: a byte slice, which can be read
/// again from an earlier offset (to copy a referenced value into a plain Rust type), or a
/// buffered reader. Sealed.
pub trait Input: BufRead + sealed::Sealed + Sized {
    /// The input from offset `at` of `origin` on (slices only).
    #[doc(hidden)]
    fn tail(origin: &Self, at: u64) -> Option<Self>;
}

impl Input for &[u8] {
    fn tail(origin: &Self, at: u64) -> Option<Self> {
        origin.get(usize::try_from(at).ok()?..)
    }
}

impl<R: std::io::Read> Input for std::io::BufReader<R> {
    fn tail(_origin: &Self, _at: u64) -> Option<Self> {
        None
    }
}

/// Where a [`Decoder`] was reading, put aside while it reads earlier input again (see
/// [`TokenRead::rewind`]); opaque.
pub struct Position<R> {
    xml: quick_xml::Reader<R>,
    base: u64,
    peeked: Option<Tok>,
    tok_start: u64,
}

/// The XML reader as the decoder configures it.
fn xml_reader<R: BufRead>(read: R) -> quick_xml::Reader<R> {
    let mut xml = quick_xml::Reader::from_reader(read);
    let cfg = xml.config_mut();
    cfg.trim_text(false);
    cfg.expand_empty_elements = false;
    cfg.check_end_names = true;
    xml
}

impl<'a> Decoder<&'a [u8]> {
    /// A decoder over a byte slice.
    pub fn from_slice(data: &'a [u8]) -> Self {
        let mut d = Decoder::new(data);
        d.origin = Some(data);
        d
    }
}

impl<R: std::io::Read> Decoder<std::io::BufReader<R>> {
    /// A decoder over any `std::io::Read` (buffered internally).
    pub fn from_reader(r: R) -> Self {
        Decoder::new(std::io::BufReader::new(r))
    }
}

impl<R: BufRead> Decoder<R> {
    /// A decoder with default limits.
    pub fn new(mut read: R) -> Self {
        // quick-xml skips a UTF-8 byte order mark without counting it in its positions: skip it
        // here, so that offsets count every byte of the input.
        let bom = matches!(read.fill_buf(), Ok(b) if b.starts_with(b"\xef\xbb\xbf"));
        if bom {
            read.consume(3);
        }
        Decoder {
            xml: xml_reader(read),
            buf: Vec::new(),
            text: Vec::new(),
            peeked: None,
            limits: Limits::default(),
            refs: 0,
            depth: 0,
            base: if bom { 3 } else { 0 },
            tok_start: 0,
            str_scratch: String::new(),
            bytes: Vec::new(),
            origin: None,
        }
    }

    /// Reads from `read`, whose first byte is at offset `base` of the message, until
    /// [`restore`](Self::restore) gives back the returned position.
    pub(crate) fn reposition(&mut self, read: R, base: u64) -> Position<R> {
        let xml = std::mem::replace(&mut self.xml, xml_reader(read));
        let saved = Position { xml, base: self.base, peeked: self.peeked.take(), tok_start: self.tok_start };
        self.base = base;
        saved
    }

    /// Goes back to reading where [`reposition`](Self::reposition) left off.
    pub(crate) fn restore(&mut self, p: Position<R>) {
        self.xml = p.xml;
        self.base = p.base;
        self.peeked = p.peeked;
        self.tok_start = p.tok_start;
    }

    /// Forgets the references registered after the first `n`.
    pub(crate) fn truncate_refs(&mut self, n: usize) {
        self.refs = self.refs.min(n);
    }

    /// Replaces the limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Offset of the next byte the XML reader will look at.
    pub fn offset(&self) -> u64 {
        self.base + self.xml.buffer_position()
    }

    /// Offset just past the last element read: unlike [`offset`](Self::offset), not counting
    /// an element the decoder has looked at ahead (the start of a list is read by looking at
    /// what follows it for a `<length>`).
    pub fn read_to(&self) -> u64 {
        match self.peeked {
            Some(_) => self.tok_start,
            None => self.offset(),
        }
    }

    /// Starts a new message: forgets value references.
    pub fn reset(&mut self) {
        self.refs = 0;
    }

    pub(crate) fn err(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.offset())
    }

    pub(crate) fn malformed(&self, msg: impl Into<String>) -> Error {
        self.err(ErrorKind::Malformed(msg.into()))
    }

    pub(crate) fn limit(&self, what: &'static str, limit: usize) -> Error {
        self.err(ErrorKind::LimitExceeded { what, limit: limit as u64 })
    }

    fn xml_err(&self, e: quick_xml::Error) -> Error {
        match e {
            quick_xml::Error::Io(io) => Error::new(
                ErrorKind::Io(std::io::Error::new(io.kind(), io.to_string())),
                self.base + self.xml.error_position(),
            ),
            e => Error::new(ErrorKind::Malformed(format!("XML: {e}")), self.base + self.xml.error_position()),
        }
    }

    /// The next structural token, skipping whitespace, comments, declarations and processing
    /// instructions between elements.
    pub(crate) fn next_tok(&mut self) -> Result<Tok> {
        if let Some(t) = self.peeked.take() {
            return Ok(t);
        }
        self.tok_start = self.offset();
        loop {
            self.buf.clear();
            let ev = match self.xml.read_event_into(&mut self.buf) {
                Ok(ev) => ev,
                Err(e) => return Err(self.xml_err(e)),
            };
            return Ok(match ev {
                Event::Start(e) => Tok::Start(tag(e.name().as_ref())),
                Event::End(e) => Tok::End(tag(e.name().as_ref())),
                Event::Empty(e) => Tok::Empty(tag(e.name().as_ref())),
                Event::Text(t) if t.iter().all(u8::is_ascii_whitespace) => {
                    // (the position does not count the `<` the reader consumed after the text)
                    self.tok_start = self.offset();
                    continue;
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) => {
                    self.tok_start = self.offset();
                    continue;
                }
                Event::DocType(_) => return Err(self.malformed("document type declarations are not allowed")),
                Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                    return Err(self.malformed("text outside a value element"))
                }
                Event::Eof => Tok::Eof,
            });
        }
    }

    pub(crate) fn peek_tok(&mut self) -> Result<Tok> {
        let t = self.next_tok()?;
        self.peeked = Some(t);
        Ok(t)
    }

    /// Collects the character data of a leaf element (after its start tag) into `self.text`,
    /// up to its end tag, resolving the predefined entities and character references.
    fn read_text(&mut self, want: Tag, max_bytes: usize) -> Result<()> {
        self.text.clear();
        loop {
            self.buf.clear();
            let ev = match self.xml.read_event_into(&mut self.buf) {
                Ok(ev) => ev,
                Err(e) => return Err(self.xml_err(e)),
            };
            match ev {
                Event::Text(t) => self.text.extend_from_slice(&t),
                Event::CData(t) => self.text.extend_from_slice(&t),
                Event::GeneralRef(r) => {
                    let name: &[u8] = &r;
                    match name {
                        b"lt" => self.text.push(b'<'),
                        b"gt" => self.text.push(b'>'),
                        b"amp" => self.text.push(b'&'),
                        b"apos" => self.text.push(b'\''),
                        b"quot" => self.text.push(b'"'),
                        _ => {
                            let c = match name.strip_prefix(b"#") {
                                Some(num) => char_ref(num),
                                None => None,
                            };
                            match c {
                                Some(c) if c >= 0x10000 => {
                                    // c is a valid scalar value (char_ref checks the range)
                                    let ch =
                                        char::from_u32(c).ok_or_else(|| self.malformed("bad character reference"))?;
                                    java_utf8::push_char(&mut self.text, ch);
                                }
                                Some(c) => java_utf8::push_unit(&mut self.text, c),
                                None => {
                                    let shown = String::from_utf8_lossy(name).into_owned();
                                    return Err(self.malformed(format!("unknown entity &{shown};")));
                                }
                            }
                        }
                    }
                }
                Event::Comment(_) | Event::PI(_) => {}
                Event::End(e) if tag(e.name().as_ref()) == want => return Ok(()),
                Event::Eof => return Err(self.err(ErrorKind::UnexpectedEof)),
                _ => return Err(self.malformed(format!("unexpected markup inside <{}>", tag_name(want)))),
            }
            if self.text.len() > max_bytes {
                return Err(self.limit("text length", max_bytes));
            }
        }
    }

    /// Text of a leaf element whose start token was read (empty for an empty-element tag).
    fn leaf(&mut self, tok: Tok, max_bytes: usize) -> Result<()> {
        match tok {
            Tok::Start(t) => self.read_text(t, max_bytes),
            _ => {
                self.text.clear();
                Ok(())
            }
        }
    }

    fn leaf_str(&mut self, tok: Tok, what: &'static str) -> Result<String> {
        self.leaf(tok, 64)?;
        match std::str::from_utf8(&self.text) {
            Ok(s) => Ok(s.trim().to_owned()),
            Err(_) => Err(self.malformed(format!("bad {what}"))),
        }
    }

    fn leaf_number<T: std::str::FromStr>(&mut self, tok: Tok, what: &'static str) -> Result<T> {
        self.leaf(tok, 64)?;
        let parsed = std::str::from_utf8(&self.text).ok().and_then(|s| s.trim().parse().ok());
        parsed.ok_or_else(|| self.malformed(format!("bad {what} {:?}", String::from_utf8_lossy(&self.text))))
    }

    /// The text of a leaf element whose start token was read, as a string (strings, XML, type
    /// and header names, methods, remote URLs).
    fn text_leaf(&mut self, tok: Tok) -> Result<String> {
        self.leaf(tok, self.max_text())?;
        self.text_string()
    }

    /// Decodes `self.text` (Java's UTF-8, surrogates possibly as 3-byte sequences) to a string.
    fn text_string(&mut self) -> Result<String> {
        self.text_str().map(str::to_owned)
    }

    /// `self.text` as a string: the text itself when it is standard UTF-8, else re-encoded into
    /// a scratch string.
    fn text_str(&mut self) -> Result<&str> {
        let units_max = self.limits.max_string_len;
        if let Ok(s) = std::str::from_utf8(&self.text) {
            if s.len() > units_max && java_utf8::utf16_len(s) > units_max {
                return Err(self.limit("string length", units_max));
            }
            // SAFETY: `self.text` was checked to be UTF-8 just above and has not changed since (the
            // check's borrow cannot be returned itself: the path below writes to `self`).
            return Ok(unsafe { std::str::from_utf8_unchecked(&self.text) });
        }
        let mut r = SliceRead::new(&self.text);
        let mut out = std::mem::take(&mut self.str_scratch);
        out.clear();
        let mut pending = None;
        let mut units = 0usize;
        let offset = self.offset();
        let at = |e: Error| Error::new(e.into_kind(), offset);
        let mut step = || -> Result<()> {
            while let Some(b) = r.peek().map_err(at)? {
                let u = if b >= 0xf0 { 2 } else { 1 };
                r.append_str(u, &mut out, &mut pending).map_err(at)?;
                units += u;
            }
            Ok(())
        };
        let read = step();
        self.str_scratch = out;
        read?;
        if units > units_max {
            return Err(self.limit("string length", units_max));
        }
        finish_str(pending, 0).map_err(at)?;
        Ok(&self.str_scratch)
    }

    fn max_text(&self) -> usize {
        self.limits.max_string_len.saturating_mul(3)
    }

    pub(crate) fn enter(&mut self) -> Result<()> {
        if self.depth >= self.limits.max_depth {
            return Err(self.limit("depth", self.limits.max_depth));
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves a list or map entered with [`enter`](Self::enter).
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Fails when a collection already holds `count` elements, the most the limits allow.
    pub(crate) fn check_count(&self, count: usize) -> Result<()> {
        self.limits.check_count(count, || self.offset())
    }

    /// Fails when a list holds another number of elements than it declared.
    pub(crate) fn check_list_len(&self, declared: Option<usize>, count: usize) -> Result<()> {
        match declared {
            Some(n) if n != count => Err(self.malformed(format!("list declares {n} elements but holds {count}"))),
            _ => Ok(()),
        }
    }

    pub(crate) fn add_ref(&mut self) -> Result<()> {
        if self.refs >= self.limits.max_refs {
            return Err(self.limit("references", self.limits.max_refs));
        }
        self.refs += 1;
        Ok(())
    }

    /// Reads one complete value.
    pub fn read_value(&mut self) -> Result<Value> {
        let tok = self.next_tok()?;
        self.parse_value(tok)
    }

    /// Reads an optional `<type>…</type>`; the empty type is `None`.
    pub(crate) fn read_opt_type(&mut self) -> Result<Option<String>> {
        match self.peek_tok()? {
            Tok::Start(Tag::Type) | Tok::Empty(Tag::Type) => {
                let tok = self.next_tok()?;
                let t = self.text_leaf(tok)?;
                Ok(Some(t).filter(|t| !t.is_empty()))
            }
            _ => Ok(None),
        }
    }

    /// Parses the value a start (or empty-element) token opens. Containers recurse through
    /// here, so leaf parsing lives in [`Self::parse_leaf`] to keep this frame small.
    pub(crate) fn parse_value(&mut self, tok: Tok) -> Result<Value> {
        let t = match tok {
            Tok::Start(t) | Tok::Empty(t) => t,
            Tok::End(t) => return Err(self.malformed(format!("unexpected </{}>", tag_name(t)))),
            Tok::Eof => return Err(self.err(ErrorKind::UnexpectedEof)),
        };
        match t {
            Tag::List => {
                self.enter()?;
                let l = self.parse_list(tok)?;
                self.depth -= 1;
                Ok(Value::List(Box::new(l)))
            }
            Tag::Map => {
                self.enter()?;
                let m = self.parse_map(tok)?;
                self.depth -= 1;
                Ok(Value::Map(Box::new(m)))
            }
            _ => self.parse_leaf(t, tok),
        }
    }

    #[inline(never)]
    pub(crate) fn parse_leaf(&mut self, t: Tag, tok: Tok) -> Result<Value> {
        if t == Tag::Base64 {
            // the decoded bytes move into the value rather than being copied out of the buffer
            self.parse_scalar(t, tok)?;
            return Ok(Value::Binary(std::mem::take(&mut self.bytes)));
        }
        if let Tag::String | Tag::Xml = t {
            // the string is made from the text straight away, not through a `Scalar` (2% of a
            // W1 decode into a `Value`)
            return self.text_leaf(tok).map(Value::String);
        }
        self.parse_scalar(t, tok).map(Scalar::into_value)
    }

    /// Parses the leaf element a start (or empty-element) token `tok` of tag `t` opens.
    pub(crate) fn parse_scalar(&mut self, t: Tag, tok: Tok) -> Result<Scalar<'static, '_>> {
        Ok(match t {
            Tag::Null => {
                self.leaf(tok, 64)?;
                if !self.text.iter().all(u8::is_ascii_whitespace) {
                    return Err(self.malformed("text inside <null>"));
                }
                Scalar::Null
            }
            Tag::Boolean => match self.leaf_str(tok, "boolean")?.as_str() {
                "1" | "true" => Scalar::Bool(true),
                "0" | "false" => Scalar::Bool(false),
                s => return Err(self.malformed(format!("bad boolean {s:?}"))),
            },
            Tag::Int => Scalar::Int(self.leaf_number(tok, "int")?),
            Tag::Long => Scalar::Long(self.leaf_number(tok, "long")?),
            Tag::Double => {
                let s = self.leaf_str(tok, "double")?;
                Scalar::Double(text::parse_java_double(&s).ok_or_else(|| self.malformed(format!("bad double {s:?}")))?)
            }
            Tag::Date => {
                let s = self.leaf_str(tok, "date")?;
                Scalar::Date(text::parse_date(&s).ok_or_else(|| self.malformed(format!("bad date {s:?}")))?)
            }
            Tag::String | Tag::Xml => {
                self.leaf(tok, self.max_text())?;
                Scalar::Str(Reference::Copied(self.text_str()?))
            }
            Tag::Base64 => {
                let max = self.limits.max_binary_len;
                self.leaf(tok, max.saturating_mul(2).saturating_add(64))?;
                let mut out = std::mem::take(&mut self.bytes);
                out.clear();
                let decoded = text::decode_base64(&self.text, &mut out).is_some();
                self.bytes = out;
                if !decoded {
                    return Err(self.malformed("bad base64"));
                }
                if self.bytes.len() > max {
                    return Err(self.limit("binary length", max));
                }
                Scalar::Bytes(Reference::Copied(&self.bytes))
            }
            Tag::Ref => {
                let s = self.leaf_str(tok, "ref")?;
                match s.parse::<u32>() {
                    Ok(r) if (r as usize) < self.refs => Scalar::Ref(r),
                    _ => {
                        let index = s.parse::<i64>().unwrap_or(-1) as u64;
                        return Err(self.err(ErrorKind::RefOutOfRange { index, len: self.refs }));
                    }
                }
            }
            Tag::Remote => {
                if tok == Tok::Empty(Tag::Remote) {
                    return Err(self.malformed("empty <remote/>"));
                }
                let type_name = self.read_opt_type()?.unwrap_or_default();
                let url = match self.next_tok()? {
                    tok @ (Tok::Start(Tag::String) | Tok::Empty(Tag::String)) => self.text_leaf(tok)?,
                    _ => return Err(self.malformed("remote URL must be a <string>")),
                };
                self.expect_end(Tag::Remote)?;
                Scalar::Remote(Box::new(Remote { type_name, url }))
            }
            t => return Err(self.malformed(format!("unexpected <{}> where a value belongs", tag_name(t)))),
        })
    }

    pub(crate) fn expect_end(&mut self, want: Tag) -> Result<()> {
        match self.next_tok()? {
            Tok::End(t) if t == want => Ok(()),
            Tok::Eof => Err(self.err(ErrorKind::UnexpectedEof)),
            _ => Err(self.malformed(format!("expected </{}>", tag_name(want)))),
        }
    }

    fn parse_list(&mut self, tok: Tok) -> Result<List> {
        if let Tok::Empty(_) = tok {
            self.add_ref()?;
            return Ok(List { type_name: None, fixed_length: false, items: Vec::new() });
        }
        let (type_name, len) = self.list_header()?;
        let mut items = Vec::with_capacity(len.unwrap_or(0).min(1024));
        loop {
            let tok = self.next_tok()?;
            if tok == Tok::End(Tag::List) {
                break;
            }
            self.check_count(items.len())?;
            items.push(self.parse_value(tok)?);
        }
        self.check_list_len(len, items.len())?;
        Ok(List { type_name, fixed_length: len.is_some(), items })
    }

    /// After `<list>`: the optional `<type>` and `<length>` (a negative length is none), then
    /// registers the list's reference.
    pub(crate) fn list_header(&mut self) -> Result<(Option<String>, Option<usize>)> {
        let type_name = self.read_opt_type()?;
        let mut len = None;
        if let Tok::Start(Tag::Length) | Tok::Empty(Tag::Length) = self.peek_tok()? {
            let tok = self.next_tok()?;
            let n: i64 = self.leaf_number(tok, "length")?;
            if n >= 0 {
                if n as u64 > self.limits.max_collection_len as u64 {
                    return Err(self.limit("collection length", self.limits.max_collection_len));
                }
                len = Some(n as usize);
            }
        }
        self.add_ref()?;
        Ok((type_name, len))
    }

    fn parse_map(&mut self, tok: Tok) -> Result<Map> {
        if let Tok::Empty(_) = tok {
            self.add_ref()?;
            return Ok(Map::default());
        }
        let type_name = self.read_opt_type()?;
        self.add_ref()?;
        let entries = self.read_entries()?;
        Ok(Map { type_name, entries })
    }

    /// The entries of a map after its header, and its `</map>`.
    pub(crate) fn read_entries(&mut self) -> Result<Vec<(Value, Value)>> {
        let mut entries = Vec::new();
        loop {
            let tok = self.next_tok()?;
            if tok == Tok::End(Tag::Map) {
                break;
            }
            self.check_count(entries.len())?;
            let k = self.parse_value(tok)?;
            let v = self.read_value()?;
            entries.push((k, v));
        }
        Ok(entries)
    }

    /// Fails unless only whitespace, comments or processing instructions remain.
    pub fn end(&mut self) -> Result<()> {
        match self.next_tok()? {
            Tok::Eof => Ok(()),
            _ => Err(self.err(ErrorKind::TrailingBytes)),
        }
    }

    /// Reads a call: `<burlap:call>`, headers, `<method>`, arguments, `</burlap:call>`.
    pub fn read_call(&mut self) -> Result<Call> {
        let header = self.read_call_header()?;
        let mut args = Vec::new();
        while !self.at_call_end()? {
            self.check_count(args.len())?;
            args.push(self.read_value()?);
        }
        self.read_call_end()?;
        Ok(Call { method: header.method, headers: header.headers, args })
    }

    /// Reads the start of a call, up to its arguments: `<burlap:call>`, the headers,
    /// `<method>`. The arguments follow (read them, then [`read_call_end`](Self::read_call_end));
    /// Burlap does not say how many there are ([`CallHeader::argc`] is `None`).
    pub fn read_call_header(&mut self) -> Result<CallHeader> {
        self.read_call_start()?;
        let mut headers = Vec::new();
        loop {
            match self.read_call_item()? {
                CallItem::Header(name) => {
                    self.check_count(headers.len())?;
                    let v = self.read_value()?;
                    headers.push((name, v));
                }
                CallItem::Method(method) => return Ok(CallHeader { method, headers, major: 1, argc: None }),
            }
        }
    }

    /// Reads `<burlap:call>`, the opening of a call.
    pub fn read_call_start(&mut self) -> Result<()> {
        match self.next_tok()? {
            Tok::Start(Tag::Call) => Ok(()),
            _ => Err(self.malformed("expected <burlap:call>")),
        }
    }

    /// Reads the next element of a call's start: `<header>` (read its value next) or
    /// `<method>` (the arguments follow).
    pub fn read_call_item(&mut self) -> Result<CallItem> {
        match self.next_tok()? {
            tok @ (Tok::Start(Tag::Header) | Tok::Empty(Tag::Header)) => Ok(CallItem::Header(self.text_leaf(tok)?)),
            tok @ (Tok::Start(Tag::Method) | Tok::Empty(Tag::Method)) => Ok(CallItem::Method(self.text_leaf(tok)?)),
            _ => Err(self.malformed("expected <header> or <method>")),
        }
    }

    /// Whether the arguments of a call have all been read (`</burlap:call>` is next).
    pub fn at_call_end(&mut self) -> Result<bool> {
        match self.peek_tok()? {
            Tok::End(Tag::Call) => Ok(true),
            Tok::Eof => Err(self.err(ErrorKind::UnexpectedEof)),
            _ => Ok(false),
        }
    }

    /// Reads the `</burlap:call>` that ends a call.
    pub fn read_call_end(&mut self) -> Result<()> {
        self.expect_end(Tag::Call)
    }

    /// Reads a reply: `<burlap:reply>`, headers (skipped), a value or a `<fault>`,
    /// `</burlap:reply>`.
    pub fn read_reply(&mut self) -> Result<Reply> {
        Ok(self.read_reply_entries()?.map_err(Fault::from_entries))
    }

    /// Reads a reply like [`Decoder::read_reply`], but keeps a fault as the entries of its map
    /// exactly as written (every key, in wire order, a null `message` included), where
    /// [`Fault`] keeps only string `code`/`message` and `detail`.
    pub fn read_reply_entries(&mut self) -> Result<RawReply> {
        if let Some(entries) = self.read_reply_header()? {
            return Ok(Err(entries));
        }
        let v = self.read_value()?;
        self.read_reply_end()?;
        Ok(Ok(v))
    }

    /// Reads the start of a reply: `<burlap:reply>` and its headers (skipped). A fault is read
    /// whole (with `</burlap:reply>`) and its map's entries returned; otherwise the value
    /// follows (read it, then [`read_reply_end`](Self::read_reply_end)).
    pub fn read_reply_header(&mut self) -> Result<Option<Vec<(Value, Value)>>> {
        self.read_reply_start()?;
        loop {
            match self.read_reply_item()? {
                ReplyItem::Header(_) => {
                    self.read_value()?;
                }
                ReplyItem::Fault => {
                    self.enter()?;
                    let mut entries = Vec::new();
                    loop {
                        let tok = self.next_tok()?;
                        if tok == Tok::End(Tag::Fault) {
                            break;
                        }
                        self.check_count(entries.len())?;
                        let k = self.parse_value(tok)?;
                        let v = self.read_value()?;
                        entries.push((k, v));
                    }
                    self.depth -= 1;
                    self.read_reply_end()?;
                    return Ok(Some(entries));
                }
                ReplyItem::Value => return Ok(None),
            }
        }
    }

    /// Reads `<burlap:reply>`, the opening of a reply.
    pub fn read_reply_start(&mut self) -> Result<()> {
        match self.next_tok()? {
            Tok::Start(Tag::Reply) => Ok(()),
            _ => Err(self.malformed("expected <burlap:reply>")),
        }
    }

    /// Reads what comes next in a reply: `<header>` (read its value next), `<fault>` (its
    /// entries follow up to `</fault>`, then `</burlap:reply>`) or neither (the value, not
    /// consumed).
    pub fn read_reply_item(&mut self) -> Result<ReplyItem> {
        match self.peek_tok()? {
            Tok::Start(Tag::Header) | Tok::Empty(Tag::Header) => {
                let tok = self.next_tok()?;
                Ok(ReplyItem::Header(self.text_leaf(tok)?))
            }
            Tok::Start(Tag::Fault) => {
                self.next_tok()?;
                Ok(ReplyItem::Fault)
            }
            _ => Ok(ReplyItem::Value),
        }
    }

    /// Reads the `</burlap:reply>` that ends a reply.
    pub fn read_reply_end(&mut self) -> Result<()> {
        self.expect_end(Tag::Reply)
    }
}

/// Parses the digits of a character reference (`60` or `x3c`) to a code point (surrogates
/// allowed: Java reads them as UTF-16 units).
fn char_ref(num: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(num).ok()?;
    let c = match s.strip_prefix('x') {
        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
        None => s.parse().ok()?,
    };
    (1..=0x10ffff).contains(&c).then_some(c)
}

pub(crate) fn tag_name(t: Tag) -> &'static str {
    match t {
        Tag::Null => "null",
        Tag::Boolean => "boolean",
        Tag::Int => "int",
        Tag::Long => "long",
        Tag::Double => "double",
        Tag::Date => "date",
        Tag::String => "string",
        Tag::Base64 => "base64",
        Tag::Xml => "xml",
        Tag::List => "list",
        Tag::Map => "map",
        Tag::Type => "type",
        Tag::Length => "length",
        Tag::Ref => "ref",
        Tag::Remote => "remote",
        Tag::Call => "burlap:call",
        Tag::Reply => "burlap:reply",
        Tag::Fault => "fault",
        Tag::Header => "header",
        Tag::Method => "method",
        Tag::Unknown => "unknown element",
    }
}

/// Decodes exactly one value from a byte slice (no envelope); anything but whitespace or
/// comments after it is an error.
pub fn from_slice(data: &[u8]) -> Result<Value> {
    from_slice_with_limits(data, Limits::default())
}

/// Like [`from_slice`] with explicit limits.
pub fn from_slice_with_limits(data: &[u8], limits: Limits) -> Result<Value> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), Decoder::read_value)
}

/// Decodes one value from a reader (no envelope).
pub fn from_reader<R: std::io::Read>(r: R) -> Result<Value> {
    let limits = Limits::default();
    let mut d = Decoder::from_reader(std::io::Read::take(r, limits.max_message_size)).with_limits(limits);
    d.read_value()
}

/// Decodes a complete call message within `limits`; anything but whitespace or comments after
/// it is an error.
pub fn call_from_slice(data: &[u8], limits: Limits) -> Result<Call> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), Decoder::read_call)
}

/// Decodes a complete reply message within `limits`, a fault as the entries of its map (see
/// [`Decoder::read_reply_entries`]).
pub fn reply_entries_from_slice(data: &[u8], limits: Limits) -> Result<RawReply> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), Decoder::read_reply_entries)
}

/// Decodes a complete reply message (a value or a fault) within `limits`.
pub fn reply_from_slice(data: &[u8], limits: Limits) -> Result<Reply> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), Decoder::read_reply)
}

crate::token::envelope_reads!(impl['de, R: Input] Decoder<R>, Fault::from_entries);

impl<R: Input> crate::token::sealed::Sealed for Decoder<R> {}

/// The kind of value an element starts.
fn tag_kind(t: Tag) -> Kind {
    match t {
        Tag::Null => Kind::Null,
        Tag::Boolean => Kind::Bool,
        Tag::Int => Kind::Int,
        Tag::Long => Kind::Long,
        Tag::Double => Kind::Double,
        Tag::Date => Kind::Date,
        Tag::String | Tag::Xml => Kind::String,
        Tag::Base64 => Kind::Binary,
        Tag::List => Kind::List,
        Tag::Map => Kind::Map,
        Tag::Ref => Kind::Ref,
        Tag::Remote => Kind::Remote,
        _ => Kind::Invalid,
    }
}

/// The opening of a Burlap value: its start or empty-element tag (opaque).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening(Tok);

/// Burlap's tokens: an opening is a start or empty-element tag, the end mark of lists and maps
/// their end tag.
impl<'de, R: Input> TokenRead<'de> for Decoder<R> {
    type Open = Opening;
    type Mark = Position<R>;
    forward_token_read!();

    fn kind(Opening(tok): Opening) -> Kind {
        match tok {
            Tok::Start(t) | Tok::Empty(t) => tag_kind(t),
            Tok::End(_) | Tok::Eof => Kind::Invalid,
        }
    }

    fn open(&mut self) -> Result<(Opening, u64)> {
        let tok = self.next_tok()?;
        Ok((Opening(tok), self.tok_start))
    }

    fn peek(&mut self) -> Result<(Option<Kind>, u64)> {
        let tok = self.peek_tok()?;
        match tok {
            Tok::End(_) => Ok((None, self.tok_start)),
            Tok::Eof => Err(self.err(ErrorKind::UnexpectedEof)),
            tok => Ok((Some(<Self as TokenRead<'de>>::kind(Opening(tok))), self.tok_start)),
        }
    }

    fn close(&mut self) -> Result<()> {
        self.next_tok().map(drop)
    }

    fn scalar(&mut self, Opening(tok): Opening) -> Result<Scalar<'de, '_>> {
        match tok {
            Tok::Start(t) | Tok::Empty(t) => self.parse_scalar(t, tok),
            tok => Err(<Self as TokenRead<'de>>::invalid(self, Opening(tok))),
        }
    }

    fn list_head(&mut self, open: Opening) -> Result<ListHead> {
        <Self as TokenRead<'de>>::list_head_with_type(self, open).map(|(head, _)| head)
    }

    fn list_head_with_type(&mut self, Opening(tok): Opening) -> Result<(ListHead, Option<String>)> {
        if let Tok::Empty(_) = tok {
            self.add_ref()?;
            return Ok((ListHead { len: None, closed: true, counted: false }, None));
        }
        let (type_name, len) = self.list_header()?;
        Ok((ListHead { len, closed: false, counted: false }, type_name))
    }

    fn map_head(&mut self, Opening(tok): Opening) -> Result<MapHead> {
        if let Tok::Empty(_) = tok {
            self.add_ref()?;
            return Ok(MapHead { type_name: None, closed: true });
        }
        let type_name = self.read_opt_type()?;
        self.add_ref()?;
        Ok(MapHead { type_name, closed: false })
    }

    fn map_entries(&mut self) -> Result<Vec<(Value, Value)>> {
        self.read_entries()
    }

    #[cold]
    fn invalid(&self, Opening(tok): Opening) -> Error {
        match tok {
            Tok::Start(t) | Tok::Empty(t) => {
                self.malformed(format!("unexpected <{}> where a value belongs", tag_name(t)))
            }
            Tok::End(t) => self.malformed(format!("unexpected </{}>", tag_name(t))),
            Tok::Eof => self.err(ErrorKind::UnexpectedEof),
        }
    }

    fn offset(&self) -> u64 {
        Decoder::offset(self)
    }

    fn rewindable(&self) -> bool {
        self.origin.is_some()
    }

    fn rewind(&mut self, at: u64) -> Option<Position<R>> {
        let input = R::tail(self.origin.as_ref()?, at)?;
        Some(self.reposition(input, at))
    }

    fn restore(&mut self, mark: Position<R>) {
        Decoder::restore(self, mark)
    }
}
