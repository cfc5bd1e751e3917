//! `hessian dump`: an annotated trace of every token (offset, raw bytes, meaning), indented by
//! nesting, in the spirit of Caucho's `HessianDebugInputStream`, for each format.
//!
//! The walkers follow each grammar itself rather than the value decoders, so that they can show
//! each string and binary chunk, each class definition, type and reference where it occurs, and
//! stop at the first bad byte with everything before it already printed. [`Trace`] is what they
//! share: the input, the position, the nesting depth and the line layout.

pub mod burlap;
pub mod h1;
pub mod h2;

use hessian::read::{Read, SliceRead};
use hessian::{Error, ErrorKind, Limits, Result};
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

/// The input being traced, the position in it, and where the lines go.
pub struct Trace<'a, 'o> {
    /// The whole input.
    pub data: &'a [u8],
    /// Offset of the next byte to read.
    pub pos: usize,
    out: &'o mut dyn Write,
    /// Current nesting (two spaces of indentation each).
    pub depth: usize,
    max_depth: usize,
}

impl<'a, 'o> Trace<'a, 'o> {
    /// A trace of `data` into `out`; writes the column header line.
    pub fn new(data: &'a [u8], out: &'o mut dyn Write) -> Result<Self> {
        let mut t = Trace { data, pos: 0, out, depth: 0, max_depth: Limits::default().max_depth };
        t.write(&format!("{:<8}  {:<BYTES_WIDTH$}  meaning", "offset", "bytes"))?;
        Ok(t)
    }

    fn write(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{line}").map_err(|e| Error::new(ErrorKind::Io(e), self.pos as u64))
    }

    /// One trace line at offset `start` whose bytes column shows `shown` (cut to fit).
    pub fn line_showing(&mut self, start: usize, shown: &str, label: &str, meaning: &str) -> Result<()> {
        let shown = if shown.chars().count() > BYTES_WIDTH {
            let mut s: String = shown.chars().take(BYTES_WIDTH - 2).collect();
            s.push_str("..");
            s
        } else {
            shown.to_owned()
        };
        let indent = "  ".repeat(self.depth);
        self.write(&format!("{start:08x}  {shown:<BYTES_WIDTH$}  {indent}{label}{meaning}"))
    }

    /// One trace line for the bytes from `start` to the current position, shown in hex.
    pub fn line(&mut self, start: usize, label: &str, meaning: &str) -> Result<()> {
        let bytes = &self.data[start.min(self.pos)..self.pos];
        let mut hex: Vec<String> = bytes.iter().take(HEX_BYTES).map(|b| format!("{b:02x}")).collect();
        if bytes.len() > HEX_BYTES {
            hex.truncate(HEX_BYTES - 1);
            hex.push("..".into());
        }
        self.line_showing(start, &hex.join(" "), label, meaning)
    }

    /// Unexpected end of input, at its end.
    pub fn eof(&self) -> Error {
        Error::new(ErrorKind::UnexpectedEof, self.data.len() as u64)
    }

    /// Reads one byte.
    pub fn byte(&mut self) -> Result<u8> {
        let b = *self.data.get(self.pos).ok_or_else(|| self.eof())?;
        self.pos += 1;
        Ok(b)
    }

    /// The next byte, not consumed.
    pub fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// Reads `N` bytes.
    pub fn be<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut b = [0u8; N];
        for x in b.iter_mut() {
            *x = self.byte()?;
        }
        Ok(b)
    }

    /// Bytes left after the position.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The error for `code` found at offset `at` where `context` was expected.
    pub fn unexpected(code: u8, context: &'static str, at: usize) -> Error {
        Error::new(ErrorKind::UnexpectedCode { code, context }, at as u64)
    }

    /// Fails unless `len` bytes remain.
    pub fn check_len(&self, len: usize) -> Result<()> {
        if len > self.remaining() {
            return Err(Error::new(
                ErrorKind::LengthPastEnd { declared: len as u64, available: self.remaining() as u64 },
                self.pos as u64,
            ));
        }
        Ok(())
    }

    /// Reads `units` UTF-16 units of string data (UTF-8, or Java's CESU-8 for surrogates); a
    /// surrogate pair split across chunks waits in `pending`.
    pub fn str_data(&mut self, units: usize, pending: &mut Option<u16>) -> Result<String> {
        self.check_len(units)?;
        let base = self.pos as u64;
        let mut r = SliceRead::new(&self.data[self.pos..]);
        let mut s = String::new();
        r.append_str(units, &mut s, pending).map_err(|e| {
            let off = e.offset();
            Error::new(e.into_kind(), base + off)
        })?;
        self.pos += r.offset() as usize;
        Ok(s)
    }

    /// One nesting level deeper (bounded like the decoders' depth).
    pub fn enter(&mut self) -> Result<()> {
        if self.depth >= self.max_depth {
            return Err(Error::new(
                ErrorKind::LimitExceeded { what: "depth", limit: self.max_depth as u64 },
                self.pos as u64,
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// One nesting level up.
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Fails with [`ErrorKind::TrailingBytes`] unless the whole input was read.
    pub fn end(&self) -> Result<()> {
        if self.pos < self.data.len() {
            return Err(Error::new(ErrorKind::TrailingBytes, self.pos as u64));
        }
        Ok(())
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
        let mut rand = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
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
