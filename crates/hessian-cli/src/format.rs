//! The one place where a wire format is chosen: `--format` names a [`Format`], [`codec`] returns
//! its [`Codec`]. Hessian 1.0.2 and Burlap plug in here once their codecs exist.

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

/// What each format provides to the three commands.
pub trait Codec {
    /// Decodes a whole input: a bare value or one message.
    fn decode(&self, data: &[u8]) -> hessian::Result<Document>;
    /// Encodes a document exactly as the reference implementation writes it.
    fn encode(&self, doc: &Document) -> hessian::Result<Vec<u8>>;
    /// Writes an annotated trace of `data`; on bad input, the trace so far, then the error.
    fn dump(&self, data: &[u8], out: &mut dyn Write) -> hessian::Result<()>;
}

/// The codec of `format`, or an error naming a format that is not implemented yet.
pub fn codec(format: Format) -> Result<&'static dyn Codec, UnsupportedFormat> {
    match format {
        Format::H2 => Ok(&H2),
        Format::H1 | Format::Burlap => Err(UnsupportedFormat(format)),
    }
}

/// A format the tool names but cannot handle yet.
#[derive(Debug, thiserror::Error)]
#[error("format {0} is not implemented yet (only h2 is)")]
pub struct UnsupportedFormat(pub Format);

struct H2;

impl Codec for H2 {
    fn decode(&self, data: &[u8]) -> hessian::Result<Document> {
        document::h2::decode(data)
    }

    fn encode(&self, doc: &Document) -> hessian::Result<Vec<u8>> {
        document::h2::encode(doc)
    }

    fn dump(&self, data: &[u8], out: &mut dyn Write) -> hessian::Result<()> {
        crate::dump::dump(data, out)
    }
}
