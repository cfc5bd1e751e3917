//! The one place where a wire format is chosen: `--format` names a [`Format`], [`codec`] returns
//! its [`Codec`].
//!
//! Hessian 2.0 supports everything (values, streams, call/reply/fault messages, dump). Hessian
//! 1.0.2 and Burlap 1.0 decode and encode values and call/reply/fault envelopes (call headers and
//! Hessian 1's `c 02 00` hybrid included), byte-exact with Caucho's writers. Streams and dumps
//! outside Hessian 2 answer [`CodecError::NotImplemented`].

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
}

impl CodecError {
    /// The underlying codec error, if any (e.g. to recognise I/O errors).
    pub fn hessian(&self) -> Option<&hessian::Error> {
        match self {
            CodecError::Hessian(e) => Some(e),
            CodecError::NotImplemented { .. } => None,
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

struct H2;

impl Codec for H2 {
    fn decode(&self, data: &[u8]) -> Result<Document, CodecError> {
        Ok(document::h2::decode(data)?)
    }

    fn encode(&self, doc: &Document) -> Result<Vec<u8>, CodecError> {
        Ok(document::h2::encode(doc)?)
    }

    fn dump(&self, data: &[u8], out: &mut dyn Write) -> Result<(), CodecError> {
        Ok(crate::dump::dump(data, out)?)
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

    fn dump(&self, _data: &[u8], _out: &mut dyn Write) -> Result<(), CodecError> {
        Err(CodecError::NotImplemented { format: Format::H1, what: "dump" })
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

    fn dump(&self, _data: &[u8], _out: &mut dyn Write) -> Result<(), CodecError> {
        Err(CodecError::NotImplemented { format: Format::Burlap, what: "dump" })
    }
}
