//! The one place where a wire format is chosen: `--format` names a [`Format`], [`codec`] returns
//! its [`Codec`], and without `--format` [`detect`] picks one from the input.
//!
//! Hessian 2.0 supports everything (values, streams, call/reply/fault messages, dump). Hessian
//! 1.0.2 and Burlap 1.0 decode, encode and dump values and call/reply/fault envelopes (call
//! headers and Hessian 1's `c 02 00` hybrid included), byte-exact with Caucho's writers. Streams
//! outside Hessian 2 answer [`CodecError::NotImplemented`] (neither `HessianOutput` nor
//! `BurlapOutput` shares anything between successive values).

use crate::document::{self, Document};
use std::io::Write;

/// The wire formats the tool knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Hessian 2.0.
    H2,
    /// Hessian 1.0.2.
    H1,
    /// Burlap 1.0.
    Burlap,
}

impl From<hessian::Format> for Format {
    fn from(f: hessian::Format) -> Self {
        match f {
            hessian::Format::Hessian2 => Format::H2,
            hessian::Format::Hessian1 => Format::H1,
            hessian::Format::Burlap => Format::Burlap,
        }
    }
}

impl From<Format> for hessian::Format {
    fn from(f: Format) -> Self {
        match f {
            Format::H2 => hessian::Format::Hessian2,
            Format::H1 => hessian::Format::Hessian1,
            Format::Burlap => hessian::Format::Burlap,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::H2 => "h2",
            Format::H1 => "h1",
            Format::Burlap => "burlap",
        })
    }
}

/// Why a codec could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    /// Malformed input or an unencodable value, with its byte offset.
    #[error(transparent)]
    Hessian(#[from] hessian::Error),
    /// Something the format exists for but the tool does not do yet.
    #[error("{what} is not implemented yet for format {format}")]
    NotImplemented {
        /// The format.
        format: Format,
        /// What was asked.
        what: &'static str,
    },
    /// Without `--format`: the input is empty or starts like no format of the family.
    #[error("{}", undetected(*.first))]
    Undetected {
        /// The first byte, `None` for an empty input.
        first: Option<u8>,
    },
    /// Without `--format`: the one format the input can be in does not read it.
    #[error("{source} (read as {format}, the only format it can be in)")]
    Detected {
        /// The detected format.
        format: hessian::Format,
        /// Why it does not read.
        source: hessian::Error,
    },
    /// Without `--format`: none of the formats the input can be in reads all of it.
    #[error("no format reads it: {}", tried.iter().map(|(f, e)| format!("as {f}, {e}")).collect::<Vec<_>>().join("; "))]
    Unreadable {
        /// Each format tried, most likely first, with its error.
        tried: Vec<(hessian::Format, hessian::Error)>,
    },
    /// Without `--format`: two formats read the whole input, with different meanings.
    #[error("ambiguous: reads completely both as {first} and as {second}, with different meanings; choose one with --format {} or --format {}", Format::from(*.first), Format::from(*.second))]
    Ambiguous {
        /// The more likely format.
        first: hessian::Format,
        /// The other one.
        second: hessian::Format,
    },
}

fn undetected(first: Option<u8>) -> String {
    match first {
        None => "empty input".into(),
        Some(b) => format!(
            "not Hessian 2, Hessian 1 or Burlap: no value or message starts with byte 0x{b:02x} (use --format to force one)"
        ),
    }
}

impl CodecError {
    /// The underlying codec error, if any (e.g. to recognise I/O errors).
    pub fn hessian(&self) -> Option<&hessian::Error> {
        match self {
            CodecError::Hessian(e) | CodecError::Detected { source: e, .. } => Some(e),
            _ => None,
        }
    }
}

/// What each format provides to the three commands.
pub trait Codec {
    /// Decodes a whole input: a bare value, a stream of values or one message.
    fn decode(&self, data: &[u8]) -> Result<Document, CodecError>;
    /// Encodes a document exactly as the reference implementation writes it.
    fn encode(&self, doc: &Document) -> Result<Vec<u8>, CodecError>;
    /// Writes an annotated trace of `data`; on bad input, the trace so far, then the error.
    fn dump(&self, data: &[u8], out: &mut dyn Write) -> Result<(), CodecError>;
}

/// The codec of `format`.
pub fn codec(format: Format) -> &'static dyn Codec {
    match format {
        Format::H2 => &H2,
        Format::H1 => &H1,
        Format::Burlap => &Burlap,
    }
}

/// Picks the format of `data` when `--format` is absent, and decodes it: each of the
/// [`hessian::detect::candidates`] in turn (most likely first) decodes the whole input. The
/// first that succeeds wins, unless a later one also succeeds with a different document, which
/// is [`CodecError::Ambiguous`]. With no success, the error of the only candidate, or of each.
pub fn detect(data: &[u8]) -> Result<(Format, Document), CodecError> {
    let candidates = hessian::detect::candidates(data);
    let mut found: Option<(hessian::Format, Document)> = None;
    let mut tried = Vec::new();
    for &f in candidates {
        match codec(f.into()).decode(data) {
            Ok(doc) => match &found {
                None => found = Some((f, doc)),
                // Compared as typed JSON, which is lossless and reads a NaN as equal to itself.
                Some((first, d)) if d.to_json() != doc.to_json() => {
                    return Err(CodecError::Ambiguous { first: *first, second: f })
                }
                Some(_) => {}
            },
            Err(CodecError::Hessian(e)) => tried.push((f, e)),
            Err(other) => return Err(other),
        }
    }
    if let Some((f, doc)) = found {
        return Ok((f.into(), doc));
    }
    match tried.len() {
        0 => Err(CodecError::Undetected { first: data.first().copied() }),
        1 => {
            let (format, source) = tried.remove(0);
            Err(CodecError::Detected { format, source })
        }
        _ => Err(CodecError::Unreadable { tried }),
    }
}

struct H2;

impl Codec for H2 {
    fn decode(&self, data: &[u8]) -> Result<Document, CodecError> {
        Ok(document::h2::decode(data)?)
    }

    fn encode(&self, doc: &Document) -> Result<Vec<u8>, CodecError> {
        Ok(document::h2::encode(doc)?)
    }

    fn dump(&self, data: &[u8], out: &mut dyn Write) -> Result<(), CodecError> {
        Ok(crate::dump::h2::dump(data, out)?)
    }
}

struct H1;

impl Codec for H1 {
    fn decode(&self, data: &[u8]) -> Result<Document, CodecError> {
        Ok(document::h1::decode(data)?)
    }

    fn encode(&self, doc: &Document) -> Result<Vec<u8>, CodecError> {
        if let Document::Stream(_) = doc {
            return Err(CodecError::NotImplemented { format: Format::H1, what: "encoding streams" });
        }
        Ok(document::h1::encode(doc)?)
    }

    fn dump(&self, data: &[u8], out: &mut dyn Write) -> Result<(), CodecError> {
        Ok(crate::dump::h1::dump(data, out)?)
    }
}

struct Burlap;

impl Codec for Burlap {
    fn decode(&self, data: &[u8]) -> Result<Document, CodecError> {
        Ok(document::burlap::decode(data)?)
    }

    fn encode(&self, doc: &Document) -> Result<Vec<u8>, CodecError> {
        if let Document::Stream(_) = doc {
            return Err(CodecError::NotImplemented { format: Format::Burlap, what: "encoding streams" });
        }
        Ok(document::burlap::encode(doc)?)
    }

    fn dump(&self, data: &[u8], out: &mut dyn Write) -> Result<(), CodecError> {
        Ok(crate::dump::burlap::dump(data, out)?)
    }
}
