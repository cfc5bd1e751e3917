//! What the Java-interop tests of Hessian 1 and Burlap (`interop_legacy.rs`,
//! `workloads_legacy.rs`) need of a format beyond its [`ValueFormat`] API: its name for the Java
//! driver `LegacyInterop`, its envelopes and how Java's driver writes them, and the few places
//! where Java's bytes are not Rust's, so that each property is written once for both formats.

use super::serde_formats::{Burlap, H1};
use super::value_formats::ValueFormat;
use super::{envelopes, Envelope};
use hessian::{burlap, h1, Call, Limits};

/// A legacy format (Hessian 1.0.2, Burlap 1.0) as `interop/java/src/LegacyInterop.java` drives
/// Caucho's `HessianOutput`/`HessianInput` or `BurlapOutput`/`BurlapInput`.
pub trait LegacyFormat: ValueFormat {
    /// The format's name on the driver's command line (`LegacyInterop write <DRIVER>`).
    const DRIVER: &'static str;
    /// The envelope cases of [`envelopes`] that the format has, in the driver's order
    /// (`ENVELOPES_H1`, `ENVELOPES_BURLAP`).
    fn envelopes() -> Vec<(&'static str, Envelope)>;
    /// The bytes of `env` as the driver writes them (`FORMAT::call_to_vec`, `reply_to_vec` or
    /// what the driver's own sequence of `HessianOutput` calls writes).
    fn envelope_to_vec(env: &Envelope) -> hessian::Result<Vec<u8>>;
    /// `FORMAT::call_to_vec(call)`: what the driver's re-write of a call, `out.call(method,
    /// args)`, writes.
    fn call_to_vec(call: &Call) -> hessian::Result<Vec<u8>>;
    /// `FORMAT::call_from_slice(b, limits)` and the major version the call declares (`None`:
    /// the format declares none).
    fn call_and_major_from_slice(b: &[u8], limits: Limits) -> hessian::Result<(Call, Option<u8>)>;
    /// The envelopes that the driver's re-write (`out.call(method, args)`) does not give back
    /// as they were: it reads past the headers and writes a plain call of the format's default
    /// version, so Java gives back [`call_to_vec`](Self::call_to_vec) of the call without its
    /// headers.
    const CALLS_REWRITTEN_PLAIN: &'static [&'static str];
    /// The catalogue cases where Java writes bytes that are not the format, as (name, Rust's
    /// bytes, Java's bytes): Rust and Java both refuse Java's bytes as malformed, and Java reads
    /// Rust's bytes and writes its own back.
    const JAVA_MALFORMED: &'static [(&'static str, &'static [u8], &'static [u8])];
}

impl LegacyFormat for H1 {
    const DRIVER: &'static str = "h1";
    /// All of them (`call:v2` is Hessian 1's only).
    fn envelopes() -> Vec<(&'static str, Envelope)> {
        envelopes()
    }
    /// A call of major version 0 (`call:headers`) as `HessianOutput`'s no-argument `startCall()`,
    /// `writeHeader`, `writeMethod` and `completeCall` write it, `c 0 1` (major and minor
    /// swapped); other calls with `call_to_vec_versioned`.
    fn envelope_to_vec(env: &Envelope) -> hessian::Result<Vec<u8>> {
        match env {
            Envelope::Call(call, 0) => {
                let mut e = h1::Encoder::new(Vec::new());
                e.write_call_begin(0, 1)?;
                for (n, v) in &call.headers {
                    e.write_header(n, v)?;
                }
                e.write_method(&call.method)?;
                for a in &call.args {
                    e.write_value(a)?;
                }
                e.write_call_end()?;
                e.finish()
            }
            Envelope::Call(call, major) => h1::call_to_vec_versioned(call, *major),
            Envelope::Reply(r) => h1::reply_to_vec(r),
        }
    }
    fn call_to_vec(call: &Call) -> hessian::Result<Vec<u8>> {
        h1::call_to_vec(call)
    }
    fn call_and_major_from_slice(b: &[u8], limits: Limits) -> hessian::Result<(Call, Option<u8>)> {
        h1::call_from_slice(b, limits).map(|(call, major)| (call, Some(major)))
    }
    /// `HessianOutput.call` writes `c 1 0`: the version 2 call and the headers' `c 0 1` call.
    const CALLS_REWRITTEN_PLAIN: &'static [&'static str] = &["call:v2", "call:headers"];
    const JAVA_MALFORMED: &'static [(&'static str, &'static [u8], &'static [u8])] = &[];
}

impl LegacyFormat for Burlap {
    const DRIVER: &'static str = "burlap";
    /// All but `call:v2` (a Burlap call declares no version).
    fn envelopes() -> Vec<(&'static str, Envelope)> {
        envelopes().into_iter().filter(|(n, _)| *n != "call:v2").collect()
    }
    /// `call_to_vec` (whatever the major version) and `reply_to_vec`.
    fn envelope_to_vec(env: &Envelope) -> hessian::Result<Vec<u8>> {
        match env {
            Envelope::Call(call, _) => burlap::call_to_vec(call),
            Envelope::Reply(r) => burlap::reply_to_vec(r),
        }
    }
    fn call_to_vec(call: &Call) -> hessian::Result<Vec<u8>> {
        burlap::call_to_vec(call)
    }
    fn call_and_major_from_slice(b: &[u8], limits: Limits) -> hessian::Result<(Call, Option<u8>)> {
        burlap::call_from_slice(b, limits).map(|call| (call, None))
    }
    /// `BurlapOutput.call` writes no headers.
    const CALLS_REWRITTEN_PLAIN: &'static [&'static str] = &["call:headers"];
    /// `remote`, whose URL holds `&`: Java prints URLs unescaped, which is not well-formed XML
    /// (Java's own `BurlapInput` rejects it), so Rust escapes it.
    const JAVA_MALFORMED: &'static [(&'static str, &'static [u8], &'static [u8])] = &[(
        "remote",
        b"<remote><type>com.example.Api</type><string>http://localhost/api?x=1&#38;y=2</string></remote>",
        b"<remote><type>com.example.Api</type><string>http://localhost/api?x=1&y=2</string></remote>",
    )];
}
