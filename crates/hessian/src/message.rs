//! Format-neutral call, reply and fault envelopes, and one API that reads and writes them in
//! any format of the family.
//!
//! Every wire format carries the same three messages. Each format module reads and writes them
//! under the same names (`call_to_vec`, `call_from_slice`, `reply_to_vec`, `reply_from_slice`,
//! `fault_to_vec` in [`crate::h2`], [`crate::h1`] and [`crate::burlap`]), every reader within
//! the [`Limits`] it is given; the functions here take the [`Format`] as an argument, so that
//! the RPC layer works with one set of types whatever the client spoke.

use crate::envelope::Format;
pub use crate::envelope::{Call, CallHeader, CallItem, Fault, RawReply, Reply, ReplyItem};
use crate::error::{Limits, Result};

/// Encodes `call` as a complete call message of `format`: Hessian 2 `H 2 0 C …` (which carries
/// no call headers: those of `call` are not written), Hessian 1 `c 1 0 … z` (for Java's hybrid
/// `c 2 0`, see [`crate::h1::call_to_vec_versioned`]), Burlap `<burlap:call>`.
pub fn call_to_vec(format: Format, call: &Call) -> Result<Vec<u8>> {
    match format {
        Format::Hessian2 => crate::h2::call_to_vec(call),
        Format::Hessian1 => crate::h1::call_to_vec(call),
        Format::Burlap => crate::burlap::call_to_vec(call),
    }
}

/// Decodes a complete call message of `format` within `limits`; bytes after it are an error (for
/// Burlap, anything but whitespace and comments). Values keep the format's own shapes (see
/// [`crate::convert`] to bring Hessian 1 and Burlap values to Hessian 2's).
pub fn call_from_slice(format: Format, data: &[u8], limits: Limits) -> Result<Call> {
    match format {
        Format::Hessian2 => crate::h2::call_from_slice(data, limits),
        Format::Hessian1 => crate::h1::call_from_slice(data, limits).map(|(call, _major)| call),
        Format::Burlap => crate::burlap::call_from_slice(data, limits),
    }
}

/// Encodes a reply (a value or a fault) as a complete reply message of `format`.
pub fn reply_to_vec(format: Format, reply: &Reply) -> Result<Vec<u8>> {
    match format {
        Format::Hessian2 => crate::h2::reply_to_vec(reply),
        Format::Hessian1 => crate::h1::reply_to_vec(reply),
        Format::Burlap => crate::burlap::reply_to_vec(reply),
    }
}

/// Encodes a fault as a complete reply message of `format`.
pub fn fault_to_vec(format: Format, fault: &Fault) -> Result<Vec<u8>> {
    match format {
        Format::Hessian2 => crate::h2::fault_to_vec(fault),
        Format::Hessian1 => crate::h1::fault_to_vec(fault),
        Format::Burlap => crate::burlap::fault_to_vec(fault),
    }
}

/// Decodes a complete reply message of `format` within `limits`; bytes after it are an error.
pub fn reply_from_slice(format: Format, data: &[u8], limits: Limits) -> Result<Reply> {
    match format {
        Format::Hessian2 => crate::h2::reply_from_slice(data, limits),
        Format::Hessian1 => crate::h1::reply_from_slice(data, limits),
        Format::Burlap => crate::burlap::reply_from_slice(data, limits),
    }
}
