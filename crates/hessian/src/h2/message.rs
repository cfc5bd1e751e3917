//! Hessian 2.0 message envelopes, byte-identical to Caucho 4.0.38's `Hessian2Output`:
//!
//! - call: `H 2 0 C method argc arg*` (`Hessian2Output.call`);
//! - reply: `H 2 0 R value` (`startReply` + `writeObject`);
//! - fault: `H 2 0 F H "code" code "message" message ["detail" detail] Z` (`writeFault`).
//!
//! `writeFault` registers the fault map as value reference 0, so references inside the detail
//! (e.g. a Java exception whose `cause` is itself) count from 1. [`read_reply`] numbers them the
//! same way, and [`write_fault`] expects a detail whose [`Value::Ref`]s follow that numbering.
//!
//! Hessian 2.0 calls carry no headers (Caucho's `Hessian2Input.readHeader` always answers none).

use super::codes::{BC_CALL, BC_END, BC_FAULT, BC_MAP, BC_MAP_UNTYPED, BC_REPLY, BC_VERSION};
use super::{Decoder, Encoder};
use crate::envelope::{Call, CallHeader, Fault, Reply};
use crate::error::{Error, ErrorKind, Limits, Result};
use crate::read::Read;
use crate::token::read_whole;
use crate::value::Value;
use std::io::Write;

/// The version header that starts every Hessian 2.0 message: `H 0x02 0x00`.
pub const VERSION_HEADER: [u8; 3] = [BC_VERSION, 2, 0];

/// Writes a complete call: version header, `C`, method name, argument count, arguments.
pub fn write_call<W: Write>(enc: &mut Encoder<W>, method: &str, args: &[Value]) -> Result<()> {
    enc.write_raw(&VERSION_HEADER)?;
    write_call_body(enc, method, args)
}

/// Writes a call without the version header (`C method argc arg*`).
pub fn write_call_body<W: Write>(enc: &mut Encoder<W>, method: &str, args: &[Value]) -> Result<()> {
    enc.write_raw(&[BC_CALL])?;
    enc.write_str(method)?;
    let argc = i32::try_from(args.len())
        .map_err(|_| Error::new(ErrorKind::Unencodable("more than 2^31-1 arguments".into()), enc.position()))?;
    enc.write_int(argc)?;
    for a in args {
        enc.write_value(a)?;
    }
    Ok(())
}

/// Writes a complete reply: version header, `R`, the value.
pub fn write_reply<W: Write>(enc: &mut Encoder<W>, value: &Value) -> Result<()> {
    enc.write_raw(&VERSION_HEADER)?;
    enc.write_raw(&[BC_REPLY])?;
    enc.write_value(value)
}

/// Writes a complete fault as `Hessian2Output.writeFault` does: version header, `F`, then an
/// untyped map of `code`, `message` (`N` when it is `None`, as Java writes a null message) and
/// (when present) `detail`, closed by `Z`.
pub fn write_fault<W: Write>(enc: &mut Encoder<W>, fault: &Fault) -> Result<()> {
    enc.write_raw(&VERSION_HEADER)?;
    enc.write_raw(&[BC_FAULT, BC_MAP_UNTYPED])?;
    enc.write_str("code")?;
    enc.write_str(&fault.code)?;
    enc.write_str("message")?;
    match &fault.message {
        Some(m) => enc.write_str(m)?,
        None => enc.write_null()?,
    }
    if let Some(detail) = &fault.detail {
        enc.write_str("detail")?;
        enc.write_value(detail)?;
    }
    enc.write_raw(&[BC_END])
}

/// Encodes a call (`H 2 0 C …`) to a new buffer. Hessian 2 calls carry no headers: those of
/// `call` are not written.
pub fn call_to_vec(call: &Call) -> Result<Vec<u8>> {
    let mut enc = Encoder::new(Vec::new());
    write_call(&mut enc, &call.method, &call.args)?;
    enc.finish()
}

/// Encodes a fault reply to a new buffer.
pub fn fault_to_vec(fault: &Fault) -> Result<Vec<u8>> {
    let mut enc = Encoder::new(Vec::new());
    write_fault(&mut enc, fault)?;
    enc.finish()
}

/// Encodes a reply (a value or a fault) to a new buffer.
pub fn reply_to_vec(reply: &Reply) -> Result<Vec<u8>> {
    let mut enc = Encoder::new(Vec::new());
    match reply {
        Ok(v) => write_reply(&mut enc, v)?,
        Err(f) => write_fault(&mut enc, f)?,
    }
    enc.finish()
}

fn expect<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>, want: u8, context: &'static str) -> Result<()> {
    let code = dec.read_code()?;
    if code == want {
        Ok(())
    } else {
        Err(dec.unexpected(code, context))
    }
}

/// Reads the version header `H 2 0` (any minor version is accepted; the major must be 2).
pub fn read_version<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<()> {
    expect(dec, BC_VERSION, "message version header")?;
    let major = dec.read_code()?;
    let _minor = dec.read_code()?;
    if major != 2 {
        return Err(Error::new(
            ErrorKind::Malformed(format!("Hessian major version {major}, expected 2")),
            dec.offset().saturating_sub(2),
        ));
    }
    Ok(())
}

/// Reads a complete call. The version header is optional (`C …` alone is accepted, as the
/// Hessian 2.0 draft allowed).
pub fn read_call<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<Call> {
    if dec.peek_code()? == Some(BC_VERSION) {
        read_version(dec)?;
    }
    read_call_body(dec)
}

/// Reads a call after its version header: `C method argc arg*`. The argument count is checked
/// against the limits and the remaining input before anything is allocated.
pub fn read_call_body<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<Call> {
    let header = read_call_start(dec)?;
    let argc = header.argc.unwrap_or(0);
    let mut args = Vec::with_capacity(argc.min(64));
    for _ in 0..argc {
        args.push(dec.read_value()?);
    }
    Ok(Call { method: header.method, headers: Vec::new(), args })
}

/// Reads the start of a call, up to its arguments: the optional version header, `C`, the
/// method name and the argument count (checked against the limits and the remaining input).
/// The arguments follow.
pub fn read_call_header<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<CallHeader> {
    if dec.peek_code()? == Some(BC_VERSION) {
        read_version(dec)?;
    }
    read_call_start(dec)
}

fn read_call_start<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<CallHeader> {
    expect(dec, BC_CALL, "call")?;
    let method = dec.read_string()?;
    let argc = dec.read_int()?;
    let argc = dec.check_len(argc.into())?;
    Ok(CallHeader { method, headers: Vec::new(), major: 2, argc: Some(argc) })
}

/// Reads a complete reply: `H 2 0 R value` gives `Ok(value)`, `H 2 0 F map` gives
/// `Err(fault)`. The version header is optional.
pub fn read_reply<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<Reply> {
    match read_reply_header(dec)? {
        Some(fault) => Ok(Err(fault)),
        None => Ok(Ok(dec.read_value()?)),
    }
}

/// Reads the start of a reply: the optional version header, then `R` (the value follows: `None`)
/// or `F` and the whole fault map (`Some(fault)`).
pub fn read_reply_header<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<Option<Fault>> {
    if dec.peek_code()? == Some(BC_VERSION) {
        read_version(dec)?;
    }
    let code = dec.read_code()?;
    match code {
        BC_REPLY => Ok(None),
        BC_FAULT => Ok(Some(read_fault_map(dec)?)),
        _ => Err(dec.unexpected(code, "reply")),
    }
}

/// Reads the fault map after `F`, registering it as reference 0 as Java does.
fn read_fault_map<'de, R: Read<'de>>(dec: &mut Decoder<'de, R>) -> Result<Fault> {
    let code = dec.read_code()?;
    match code {
        BC_MAP_UNTYPED => {}
        BC_MAP => {
            dec.read_type()?;
        }
        _ => return Err(dec.unexpected(code, "fault map")),
    }
    dec.add_ref()?;
    let mut entries = Vec::new();
    loop {
        let c = dec.read_code()?;
        if c == BC_END {
            break;
        }
        dec.check_count(entries.len())?;
        let k = dec.parse_value(c)?;
        let v = dec.read_value()?;
        entries.push((k, v));
    }
    Ok(Fault::from_entries(entries))
}

/// Decodes a complete call from a slice; trailing bytes are an error.
pub fn call_from_slice(data: &[u8], limits: Limits) -> Result<Call> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), read_call)
}

/// Decodes a complete reply from a slice; trailing bytes are an error.
pub fn reply_from_slice(data: &[u8], limits: Limits) -> Result<Reply> {
    read_whole(data.len(), limits, |l| Decoder::from_slice(data).with_limits(l), read_reply)
}

impl<'de, R: Read<'de>> crate::token::CallRead<'de> for Decoder<'de, R> {
    fn call_header(&mut self) -> Result<CallHeader> {
        read_call_header(self)
    }

    fn call_done(&mut self, header: &CallHeader, read: usize) -> Result<bool> {
        Ok(header.argc == Some(read))
    }

    fn call_end(&mut self) -> Result<()> {
        Ok(())
    }
}

impl<'de, R: Read<'de>> crate::token::ReplyRead<'de> for Decoder<'de, R> {
    fn reply_header(&mut self) -> Result<Option<Fault>> {
        read_reply_header(self)
    }

    fn reply_end(&mut self) -> Result<()> {
        Ok(())
    }
}

impl<W: Write> crate::token::CallWrite for Encoder<W> {
    fn call_start(&mut self, _major: u8, method: &str, headers: &[(String, Value)], argc: usize) -> Result<()> {
        if !headers.is_empty() {
            let msg = "Hessian 2 calls carry no headers".into();
            return Err(Error::new(ErrorKind::Unencodable(msg), self.position()));
        }
        if i32::try_from(argc).is_err() {
            let msg = "more than 2^31-1 arguments".into();
            return Err(Error::new(ErrorKind::Unencodable(msg), self.position()));
        }
        self.write_raw(&VERSION_HEADER)?;
        write_call_start(self, method, argc)
    }

    fn call_end(&mut self) -> Result<()> {
        Ok(())
    }
}

impl<W: Write> crate::token::ReplyWrite for Encoder<W> {
    fn reply_start(&mut self) -> Result<()> {
        self.write_raw(&VERSION_HEADER)?;
        self.write_raw(&[BC_REPLY])
    }

    fn reply_end(&mut self) -> Result<()> {
        Ok(())
    }

    fn fault(&mut self, fault: &Fault) -> Result<()> {
        write_fault(self, fault)
    }
}

/// Writes `C method argc`: a Hessian 2 call after its version header (`H 02 00`, or a referring
/// message's `H 02 01 T 30 <digest>`).
pub(crate) fn write_call_start<W: Write>(enc: &mut Encoder<W>, method: &str, argc: usize) -> Result<()> {
    let argc = i32::try_from(argc)
        .map_err(|_| Error::new(ErrorKind::Unencodable("more than 2^31-1 arguments".into()), enc.position()))?;
    enc.write_raw(&[BC_CALL])?;
    enc.write_str(method)?;
    enc.write_int(argc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_bytes() {
        let b = call_to_vec(&Call::new("add2", vec![Value::Int(2), Value::Int(3)])).unwrap();
        assert_eq!(b, b"H\x02\x00C\x04add2\x92\x92\x93");
        let call = call_from_slice(&b, Limits::default()).unwrap();
        assert_eq!(call, Call::new("add2", vec![Value::Int(2), Value::Int(3)]));
    }

    #[test]
    fn reply_and_fault_bytes() {
        let b = reply_to_vec(&Ok(Value::Int(5))).unwrap();
        assert_eq!(b, b"H\x02\x00R\x95");
        assert_eq!(reply_from_slice(&b, Limits::default()).unwrap(), Ok(Value::Int(5)));
        let f = Fault::new("ServiceException", "boom");
        let b = reply_to_vec(&Err(f.clone())).unwrap();
        assert_eq!(b, b"H\x02\x00FH\x04code\x10ServiceException\x07message\x04boomZ".to_vec());
        assert_eq!(reply_from_slice(&b, Limits::default()).unwrap(), Err(f));
    }

    #[test]
    fn fault_detail_refs_count_from_one() {
        // An object whose field refers to itself: Java writes `Q 1` since the map is ref 0.
        let class = crate::ClassDef::new("E", ["cause"]);
        let detail = Value::object(class, vec![Value::Ref(1)]);
        let f = Fault { code: "ServiceException".into(), message: Some("m".into()), detail: Some(detail) };
        let b = reply_to_vec(&Err(f.clone())).unwrap();
        assert_eq!(reply_from_slice(&b, Limits::default()).unwrap(), Err(f));
    }

    #[test]
    fn truncated_reply_is_an_error() {
        let b = reply_to_vec(&Ok(Value::string("hello"))).unwrap();
        for n in 0..b.len() {
            assert!(reply_from_slice(&b[..n], Limits::default()).is_err(), "prefix {n}");
        }
    }
}
