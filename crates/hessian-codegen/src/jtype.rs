//! Java types from descriptors (`Ljava/util/List;`) and generic signatures
//! (`Ljava/util/List<Lcom/example/Item;>;`, JVMS 4.7.9.1).

/// A Java type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JType {
    /// A primitive: its descriptor letter (`I`, `J`, `Z`, …), or `V` for `void`.
    Primitive(char),
    /// A class or interface, with its type arguments (dots, not slashes).
    Class(String, Vec<JType>),
    /// An array of the element type.
    Array(Box<JType>),
    /// A type variable (`T`), or a wildcard (`?`, `? extends X` is X).
    Variable(String),
}

struct P<'a> {
    s: &'a [u8],
    at: usize,
}

impl P<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    fn ident(&mut self, stops: &[u8]) -> Option<String> {
        let start = self.at;
        while let Some(c) = self.peek() {
            if stops.contains(&c) {
                break;
            }
            self.at += 1;
        }
        std::str::from_utf8(&self.s[start..self.at]).ok().map(str::to_owned)
    }

    fn ty(&mut self) -> Option<JType> {
        match self.next()? {
            c @ (b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b'V') => Some(JType::Primitive(c as char)),
            b'[' => Some(JType::Array(Box::new(self.ty()?))),
            b'T' => {
                let name = self.ident(b";")?;
                (self.next()? == b';').then_some(JType::Variable(name))
            }
            b'L' => {
                let mut name = self.ident(b";<.")?;
                let mut args = Vec::new();
                loop {
                    match self.next()? {
                        b';' => break,
                        b'<' => args = self.args()?,
                        b'.' => {
                            // an inner class of a generic outer one: `Outer<T>.Inner`
                            name.push('$');
                            name.push_str(&self.ident(b";<.")?);
                            args.clear();
                        }
                        _ => return None,
                    }
                }
                Some(JType::Class(name.replace('/', "."), args))
            }
            _ => None,
        }
    }

    fn args(&mut self) -> Option<Vec<JType>> {
        let mut out = Vec::new();
        loop {
            match self.peek()? {
                b'>' => {
                    self.at += 1;
                    return Some(out);
                }
                b'*' => {
                    self.at += 1;
                    out.push(JType::Variable("?".into()));
                }
                b'+' | b'-' => {
                    self.at += 1;
                    out.push(self.ty()?);
                }
                _ => out.push(self.ty()?),
            }
        }
    }
}

/// The Java name of a primitive type by its descriptor letter (`I`: `int`; `V` and any other
/// letter: `void`).
pub fn primitive_name(letter: char) -> &'static str {
    match letter {
        'Z' => "boolean",
        'B' => "byte",
        'S' => "short",
        'I' => "int",
        'J' => "long",
        'F' => "float",
        'D' => "double",
        'C' => "char",
        _ => "void",
    }
}

/// The type of a field descriptor or field signature.
pub fn field(s: &str) -> Option<JType> {
    let mut p = P { s: s.as_bytes(), at: 0 };
    let t = p.ty()?;
    (p.at == s.len()).then_some(t)
}

/// The parameter types and return type of a method descriptor or method signature.
pub fn method(s: &str) -> Option<(Vec<JType>, JType)> {
    let mut p = P { s: s.as_bytes(), at: 0 };
    if p.peek()? == b'<' {
        // type parameters: `<T:Ljava/lang/Object;U::Ljava/lang/Comparable<TU;>;>`
        p.at += 1;
        while p.peek()? != b'>' {
            p.ident(b":")?;
            while p.peek()? == b':' {
                p.at += 1;
                if matches!(p.peek()?, b'L' | b'T' | b'[') {
                    p.ty()?;
                }
            }
        }
        p.at += 1;
    }
    if p.next()? != b'(' {
        return None;
    }
    let mut params = Vec::new();
    while p.peek()? != b')' {
        params.push(p.ty()?);
    }
    p.at += 1;
    let ret = p.ty()?;
    // `^Ljava/io/IOException;` throws clauses follow in signatures
    Some((params, ret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_and_signatures() {
        assert_eq!(field("I"), Some(JType::Primitive('I')));
        assert_eq!(field("[J"), Some(JType::Array(Box::new(JType::Primitive('J')))));
        assert_eq!(
            field("Ljava/util/Map<Ljava/lang/String;+Lcom/x/A;>;"),
            Some(JType::Class(
                "java.util.Map".into(),
                vec![JType::Class("java.lang.String".into(), vec![]), JType::Class("com.x.A".into(), vec![])]
            ))
        );
        let (params, ret) = method("<T:Ljava/lang/Object;>(ILjava/util/List<TT;>;)TT;^Ljava/io/IOException;").unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(ret, JType::Variable("T".into()));
        assert_eq!(method("()V"), Some((vec![], JType::Primitive('V'))));
        for bad in ["", "L", "Ljava/lang/String", "[", "X", "(I", "(I)", "<T:>"] {
            assert!(field(bad).is_none() || method(bad).is_none(), "{bad}");
        }
    }
}
