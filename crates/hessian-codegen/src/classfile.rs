//! A reader of the parts of a Java class file (JVMS chapter 4) that code generation needs: the
//! class's name, flags, superclass, fields and methods with their descriptors, and the
//! `Signature` (generic types), `MethodParameters` (parameter names) and `Exceptions` (a
//! method's `throws` clause) attributes. Everything
//! else is skipped by its length. Every read is bounds-checked: a truncated or malformed file is
//! an [`Error`] with the byte offset, never a panic.

use crate::Error;

/// `ACC_STATIC`.
pub const ACC_STATIC: u16 = 0x0008;
/// `ACC_TRANSIENT` (on a field).
pub const ACC_TRANSIENT: u16 = 0x0080;
/// `ACC_SYNTHETIC`.
pub const ACC_SYNTHETIC: u16 = 0x1000;
/// `ACC_INTERFACE`.
pub const ACC_INTERFACE: u16 = 0x0200;
/// `ACC_ENUM` (on a class or a field).
pub const ACC_ENUM: u16 = 0x4000;
/// `ACC_ABSTRACT` (on a method).
pub const ACC_ABSTRACT: u16 = 0x0400;

/// A field or a method.
#[derive(Clone, Debug)]
pub struct Member {
    /// Access flags.
    pub flags: u16,
    /// Its name.
    pub name: String,
    /// Its descriptor (`I`, `Ljava/lang/String;`, `(ILjava/util/List;)V`).
    pub descriptor: String,
    /// Its generic signature, when it has one.
    pub signature: Option<String>,
    /// A method's parameter names, when it was compiled with `-parameters`.
    pub parameters: Vec<String>,
    /// A method's declared exceptions (its `throws` clause, the `Exceptions` attribute), with
    /// dots.
    pub exceptions: Vec<String>,
}

/// One class file.
#[derive(Clone, Debug)]
pub struct ClassFile {
    /// Access flags.
    pub flags: u16,
    /// The binary name with dots (`com.example.Money`).
    pub name: String,
    /// The superclass's name with dots (`None` for `java.lang.Object` itself).
    pub superclass: Option<String>,
    /// Fields in declaration order.
    pub fields: Vec<Member>,
    /// Methods in declaration order.
    pub methods: Vec<Member>,
}

enum Constant {
    Utf8(String),
    Class(u16),
    Other,
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    file: &'a str,
}

impl<'a> Reader<'a> {
    fn bad(&self, what: &str) -> Error {
        Error::ClassFile { file: self.file.to_owned(), offset: self.at, reason: what.to_owned() }
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.data.len()).ok_or_else(|| self.bad("truncated"))?;
        let s = &self.data[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.bytes(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, Error> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, Error> {
        let b = self.bytes(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// Java's "modified UTF-8" as a string (a NUL is two bytes, supplementary characters are
/// surrogate pairs of three bytes each).
fn modified_utf8(b: &[u8]) -> Option<String> {
    let mut units: Vec<u16> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let x = b[i];
        if x < 0x80 {
            units.push(u16::from(x));
            i += 1;
        } else if x & 0xe0 == 0xc0 {
            let y = *b.get(i + 1)?;
            units.push((u16::from(x & 0x1f) << 6) | u16::from(y & 0x3f));
            i += 2;
        } else if x & 0xf0 == 0xe0 {
            let (y, z) = (*b.get(i + 1)?, *b.get(i + 2)?);
            units.push((u16::from(x & 0x0f) << 12) | (u16::from(y & 0x3f) << 6) | u16::from(z & 0x3f));
            i += 3;
        } else {
            return None;
        }
    }
    String::from_utf16(&units).ok()
}

/// Parses a class file; `file` names it in errors.
pub fn parse(data: &[u8], file: &str) -> Result<ClassFile, Error> {
    let mut r = Reader { data, at: 0, file };
    if r.u32()? != 0xCAFE_BABE {
        return Err(Error::ClassFile {
            file: file.to_owned(),
            offset: 0,
            reason: "not a class file (no CAFEBABE)".into(),
        });
    }
    r.bytes(4)?; // minor, major
    let count = r.u16()?;
    let mut pool: Vec<Constant> = Vec::with_capacity(usize::from(count));
    pool.push(Constant::Other); // index 0 is unused
    let mut i = 1;
    while i < count {
        let tag = r.u8()?;
        let c = match tag {
            1 => {
                let len = r.u16()?;
                let at = r.at;
                let b = r.bytes(usize::from(len))?;
                Constant::Utf8(modified_utf8(b).ok_or(Error::ClassFile {
                    file: file.to_owned(),
                    offset: at,
                    reason: "invalid modified UTF-8".into(),
                })?)
            }
            7 => Constant::Class(r.u16()?),
            8 | 16 | 19 | 20 => {
                r.u16()?;
                Constant::Other
            }
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => {
                r.u32()?;
                Constant::Other
            }
            15 => {
                r.bytes(3)?;
                Constant::Other
            }
            5 | 6 => {
                r.bytes(8)?;
                pool.push(Constant::Other);
                i += 1; // a long or double takes two entries
                Constant::Other
            }
            _ => return Err(r.bad(&format!("unknown constant pool tag {tag}"))),
        };
        pool.push(c);
        i += 1;
    }
    let utf8 = |r: &Reader, idx: u16| -> Result<String, Error> {
        match pool.get(usize::from(idx)) {
            Some(Constant::Utf8(s)) => Ok(s.clone()),
            _ => Err(r.bad(&format!("constant {idx} is not a UTF-8 entry"))),
        }
    };
    let class_name = |r: &Reader, idx: u16| -> Result<String, Error> {
        match pool.get(usize::from(idx)) {
            Some(Constant::Class(n)) => Ok(utf8(r, *n)?.replace('/', ".")),
            _ => Err(r.bad(&format!("constant {idx} is not a class entry"))),
        }
    };
    let flags = r.u16()?;
    let this = r.u16()?;
    let name = class_name(&r, this)?;
    let sup = r.u16()?;
    let superclass = if sup == 0 { None } else { Some(class_name(&r, sup)?) };
    let interfaces = r.u16()?;
    r.bytes(usize::from(interfaces) * 2)?;
    let members = |r: &mut Reader| -> Result<Vec<Member>, Error> {
        let n = r.u16()?;
        let mut out = Vec::with_capacity(usize::from(n));
        for _ in 0..n {
            let flags = r.u16()?;
            let idx = r.u16()?;
            let name = utf8(r, idx)?;
            let idx = r.u16()?;
            let descriptor = utf8(r, idx)?;
            let (mut signature, mut parameters, mut exceptions) = (None, Vec::new(), Vec::new());
            for _ in 0..r.u16()? {
                let idx = r.u16()?;
                let attr = utf8(r, idx)?;
                let len = r.u32()? as usize;
                let start = r.at;
                match attr.as_str() {
                    "Signature" => {
                        let idx = r.u16()?;
                        signature = Some(utf8(r, idx)?);
                    }
                    "Exceptions" => {
                        for _ in 0..r.u16()? {
                            let idx = r.u16()?;
                            exceptions.push(class_name(r, idx)?);
                        }
                    }
                    "MethodParameters" => {
                        for _ in 0..r.u8()? {
                            let idx = r.u16()?;
                            r.u16()?; // flags
                            parameters.push(if idx == 0 { String::new() } else { utf8(r, idx)? });
                        }
                    }
                    _ => {}
                }
                // skip to the attribute's end whatever was read of it
                r.at = start;
                r.bytes(len)?;
            }
            out.push(Member { flags, name, descriptor, signature, parameters, exceptions });
        }
        Ok(out)
    };
    let fields = members(&mut r)?;
    let methods = members(&mut r)?;
    Ok(ClassFile { flags, name, superclass, fields, methods })
}
