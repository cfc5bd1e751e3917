//! Rust from compiled Java: reads the class files of a service interface and of the classes its
//! methods take and return (from `.class` files, directories of them, or jars), and writes the
//! Rust a client or server of that service needs with `hessian-rpc`:
//!
//! - a serde struct per class, named by the Java class (`#[serde(rename = "com.example.Money")]`),
//!   its fields in the order Caucho's serializer writes them (the class's primitive and
//!   `java.lang` fields, then its superclasses', then the other fields likewise), so that the
//!   Rust side writes the bytes Java writes;
//! - a Rust enum per Java enum (unit variants, renamed to the Java constants);
//! - the service trait for `#[hessian_rpc::service]`, one `async fn` per interface method, with
//!   the Java method name.
//!
//! Types map as `docs/serde-mapping.md` describes: primitives to Rust primitives, boxed ones to
//! `Option`, `String`, `java.util.Date` to `hessian::serde::Date`, lists, sets and arrays to `Vec`,
//! maps to `HashMap`, `byte[]` to bytes (`serde_bytes`), `Object` and type variables to
//! `hessian::Value`; a class the generator cannot map is an [`Error::Unmapped`] naming the class
//! and the field. A field whose type leads back to its own class is `Option<Box<T>>`.

#![deny(missing_docs)]

pub mod classfile;
pub mod jtype;

use classfile::{ClassFile, ACC_ABSTRACT, ACC_ENUM, ACC_INTERFACE, ACC_STATIC, ACC_SYNTHETIC, ACC_TRANSIENT};
use jtype::JType;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A jar could not be read.
    #[error("{path}: not a readable jar: {reason}")]
    Jar {
        /// The jar.
        path: String,
        /// Why.
        reason: String,
    },
    /// A class file is malformed.
    #[error("{file}: malformed class file at byte {offset}: {reason}")]
    ClassFile {
        /// The class file (or `jar!entry`).
        file: String,
        /// The byte offset of the problem.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// The service (or a class it needs) is not among the classes read.
    #[error("class {0} not found in the input")]
    NotFound(String),
    /// The service is not an interface.
    #[error("{0} is not an interface")]
    NotAnInterface(String),
    /// A type the generator has no Rust mapping for.
    #[error("cannot map {member} of {class}: {reason}")]
    Unmapped {
        /// The class whose member has the type.
        class: String,
        /// The field, or the method and parameter.
        member: String,
        /// The type and why.
        reason: String,
    },
    /// A descriptor or signature that does not parse.
    #[error("{class}.{member}: unreadable type {descriptor:?}")]
    Descriptor {
        /// The class.
        class: String,
        /// The member.
        member: String,
        /// The descriptor or signature.
        descriptor: String,
    },
}

/// The classes read so far, by name.
#[derive(Default, Debug)]
pub struct Classes {
    classes: BTreeMap<String, ClassFile>,
}

impl Classes {
    /// Reads every class of `path`: a `.class` file, a directory (recursively) or a jar.
    pub fn add_path(&mut self, path: &Path) -> Result<(), Error> {
        let io = |source| Error::Io { path: path.display().to_string(), source };
        if path.is_dir() {
            let mut entries: Vec<_> = std::fs::read_dir(path).map_err(io)?.flatten().map(|e| e.path()).collect();
            entries.sort();
            for p in entries {
                if p.is_dir() || p.extension().is_some_and(|e| e == "class") {
                    self.add_path(&p)?;
                }
            }
            return Ok(());
        }
        let data = std::fs::read(path).map_err(io)?;
        if data.starts_with(b"PK") {
            return self.add_jar(&data, &path.display().to_string());
        }
        self.add_class(&data, &path.display().to_string())
    }

    /// Reads one class file's bytes; `file` names it in errors.
    pub fn add_class(&mut self, data: &[u8], file: &str) -> Result<(), Error> {
        let c = classfile::parse(data, file)?;
        self.classes.insert(c.name.clone(), c);
        Ok(())
    }

    fn add_jar(&mut self, data: &[u8], path: &str) -> Result<(), Error> {
        let jar = |reason: String| Error::Jar { path: path.to_owned(), reason };
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(data)).map_err(|e| jar(e.to_string()))?;
        for i in 0..zip.len() {
            let mut entry = zip.by_index(i).map_err(|e| jar(e.to_string()))?;
            if !entry.name().ends_with(".class") || entry.name().starts_with("META-INF/") {
                continue;
            }
            let name = format!("{path}!{}", entry.name());
            // a class file is small; a jar entry claiming gigabytes is refused
            if entry.size() > 64 << 20 {
                return Err(jar(format!("{name} is larger than 64 MiB")));
            }
            let mut bytes = Vec::with_capacity(entry.size() as usize);
            entry.by_ref().take(64 << 20).read_to_end(&mut bytes).map_err(|e| jar(format!("{name}: {e}")))?;
            self.add_class(&bytes, &name)?;
        }
        Ok(())
    }

    /// The class `name`, if read.
    pub fn get(&self, name: &str) -> Option<&ClassFile> {
        self.classes.get(name)
    }
}

/// The Rust for the service interface `service` (its binary name, `com.example.Api`) and every
/// class its methods reach.
pub fn generate(classes: &Classes, service: &str) -> Result<String, Error> {
    let api = classes.get(service).ok_or_else(|| Error::NotFound(service.to_owned()))?;
    if api.flags & ACC_INTERFACE == 0 {
        return Err(Error::NotAnInterface(service.to_owned()));
    }
    let mut g = Gen { classes, wanted: BTreeSet::new(), done: BTreeMap::new() };
    let trait_src = g.service(api)?;
    // every class the methods reach, and the classes those reach, in name order
    while let Some(name) = g.wanted.iter().find(|n| !g.done.contains_key(*n)).cloned() {
        let src = g.class(&name)?;
        g.done.insert(name, src);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! Generated by `hessian codegen` from the class files of `{service}`: do not edit, generate\n\
         //! again. Needs the crates `serde` (with `derive`), `hessian`, `hessian-rpc`{}.\n",
        if g.done.values().any(|s| s.contains("serde_bytes")) { " and `serde_bytes`" } else { "" }
    );
    out.push_str("#![allow(clippy::all)]\n\nuse serde::{Deserialize, Serialize};\n\n");
    out.push_str(&trait_src);
    for src in g.done.values() {
        out.push('\n');
        out.push_str(src);
    }
    Ok(out)
}

struct Gen<'a> {
    classes: &'a Classes,
    /// Input classes the generated code refers to.
    wanted: BTreeSet<String>,
    /// The source of each class generated so far.
    done: BTreeMap<String, String>,
}

fn simple(name: &str) -> &str {
    let s = name.rsplit('.').next().unwrap_or(name);
    s.rsplit('$').next().unwrap_or(s)
}

/// `getItems` -> `get_items`, `URLPath` -> `url_path`.
fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if i > 0 && (prev_lower || (next_lower && chars[i - 1].is_uppercase())) {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else if c == '$' {
            out.push('_');
        } else {
            out.push(c);
        }
    }
    ident(out)
}

/// `RED_WINE` -> `RedWine`.
fn camel(name: &str) -> String {
    let mut out = String::new();
    for part in name.split('_').filter(|p| !p.is_empty()) {
        let mut cs = part.chars();
        if let Some(f) = cs.next() {
            out.extend(f.to_uppercase());
            out.extend(cs.flat_map(char::to_lowercase));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    out
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become",
    "box", "do", "final", "gen", "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

fn ident(s: String) -> String {
    if KEYWORDS.contains(&s.as_str()) {
        if matches!(s.as_str(), "self" | "Self" | "super" | "crate") {
            format!("{s}_")
        } else {
            format!("r#{s}")
        }
    } else {
        s
    }
}

/// Whether Caucho's serializer writes a field of this type with the "primitive" ones (first):
/// primitives and `java.lang` classes other than `Object`.
fn early(t: &JType) -> bool {
    match t {
        JType::Primitive(_) => true,
        JType::Class(n, _) => n.starts_with("java.lang.") && n != "java.lang.Object",
        _ => false,
    }
}

impl Gen<'_> {
    /// The Rust type of `t`, met as `member` of `class`; records input classes it names.
    fn rust(&mut self, t: &JType, class: &str, member: &str) -> Result<String, Error> {
        let unmapped = |reason: String| Error::Unmapped { class: class.to_owned(), member: member.to_owned(), reason };
        Ok(match t {
            JType::Primitive(c) => match c {
                'Z' => "bool",
                'B' => "i8",
                'S' => "i16",
                'I' => "i32",
                'J' => "i64",
                'F' => "f32",
                'D' => "f64",
                'C' => "char",
                'V' => "()",
                _ => return Err(unmapped(format!("primitive {c}"))),
            }
            .to_owned(),
            JType::Variable(_) => "hessian::Value".to_owned(),
            JType::Array(inner) => match **inner {
                JType::Primitive('B') => "Vec<u8>".to_owned(),
                _ => format!("Vec<{}>", self.rust(inner, class, member)?),
            },
            JType::Class(name, args) => {
                let arg = |g: &mut Self, i: usize| match args.get(i) {
                    Some(a) => g.rust(a, class, member),
                    None => Ok("hessian::Value".to_owned()),
                };
                match name.as_str() {
                    "java.lang.String" => "String".to_owned(),
                    "java.lang.Boolean" => "Option<bool>".to_owned(),
                    "java.lang.Byte" => "Option<i8>".to_owned(),
                    "java.lang.Short" => "Option<i16>".to_owned(),
                    "java.lang.Integer" => "Option<i32>".to_owned(),
                    "java.lang.Long" => "Option<i64>".to_owned(),
                    "java.lang.Float" => "Option<f32>".to_owned(),
                    "java.lang.Double" => "Option<f64>".to_owned(),
                    "java.lang.Character" => "Option<char>".to_owned(),
                    "java.lang.Object" => "hessian::Value".to_owned(),
                    "java.util.Date" | "java.sql.Timestamp" | "java.sql.Date" => "hessian::serde::Date".to_owned(),
                    "java.util.List"
                    | "java.util.ArrayList"
                    | "java.util.LinkedList"
                    | "java.util.Collection"
                    | "java.util.Set"
                    | "java.util.HashSet"
                    | "java.util.TreeSet"
                    | "java.util.LinkedHashSet"
                    | "java.util.Vector"
                    | "java.lang.Iterable" => format!("Vec<{}>", arg(self, 0)?),
                    "java.util.Map"
                    | "java.util.HashMap"
                    | "java.util.TreeMap"
                    | "java.util.LinkedHashMap"
                    | "java.util.Hashtable" => {
                        let k = arg(self, 0)?;
                        let hashable = ["String", "i8", "i16", "i32", "i64", "bool", "char"];
                        if !hashable.contains(&k.as_str()) && !self.is_enum(args.first()) {
                            return Err(unmapped(format!("{name} with keys of type {k}, which is not hashable")));
                        }
                        format!("std::collections::HashMap<{k}, {}>", arg(self, 1)?)
                    }
                    _ => match self.classes.get(name) {
                        Some(_) => {
                            self.wanted.insert(name.clone());
                            simple(name).to_owned()
                        }
                        None => return Err(unmapped(format!("{name}, a class not in the input and with no mapping"))),
                    },
                }
            }
        })
    }

    fn is_enum(&self, t: Option<&JType>) -> bool {
        matches!(t, Some(JType::Class(n, _)) if self.classes.get(n).is_some_and(|c| c.flags & ACC_ENUM != 0))
    }

    fn service(&mut self, api: &ClassFile) -> Result<String, Error> {
        let methods: Vec<_> = api
            .methods
            .iter()
            .filter(|m| m.flags & (ACC_STATIC | ACC_SYNTHETIC) == 0 && m.flags & ACC_ABSTRACT != 0)
            .collect();
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for m in &methods {
            *count.entry(m.name.as_str()).or_default() += 1;
        }
        let mut used: BTreeMap<String, usize> = BTreeMap::new();
        let mut out = String::new();
        let _ = writeln!(out, "/// The Java interface `{}`.", api.name);
        let _ = writeln!(out, "#[hessian_rpc::service(api = \"{}\")]", api.name);
        let _ = writeln!(out, "pub trait {} {{", simple(&api.name));
        for m in methods {
            let sig = m.signature.as_deref().unwrap_or(&m.descriptor);
            let (params, ret) = jtype::method(sig).ok_or_else(|| Error::Descriptor {
                class: api.name.clone(),
                member: m.name.clone(),
                descriptor: sig.to_owned(),
            })?;
            let mut args = Vec::new();
            let mut mangled = Vec::new();
            for (i, p) in params.iter().enumerate() {
                let pname =
                    m.parameters.get(i).filter(|n| !n.is_empty()).map_or_else(|| format!("arg{i}"), |n| snake(n));
                let ty = self.rust(p, &api.name, &format!("{}(parameter {})", m.name, i + 1))?;
                mangled.push(mangle(p));
                args.push(format!("{pname}: {ty}"));
            }
            let ret = self.rust(&ret, &api.name, &format!("{}(return)", m.name))?;
            let base = snake(&m.name);
            let n = used.entry(base.clone()).or_default();
            let rust_name = if *n == 0 { base } else { format!("{base}_{n}") };
            *n += 1;
            let _ = writeln!(out, "    /// `{}{}`", m.name, m.descriptor);
            if count[m.name.as_str()] > 1 {
                let _ = writeln!(out, "    #[hessian(name = \"{}\", params = \"{}\")]", m.name, mangled.join(", "));
            } else {
                let _ = writeln!(out, "    #[hessian(name = \"{}\")]", m.name);
            }
            let _ = writeln!(
                out,
                "    async fn {rust_name}(&self{}{}) -> Result<{ret}, hessian_rpc::ServiceError>;",
                if args.is_empty() { "" } else { ", " },
                args.join(", ")
            );
        }
        out.push_str("}\n");
        Ok(out)
    }

    /// Whether a field of type `t` in `class` leads back to `class` (so it must be boxed).
    fn reaches(&self, t: &JType, class: &str, seen: &mut BTreeSet<String>) -> bool {
        match t {
            JType::Array(inner) => self.reaches(inner, class, seen),
            JType::Class(name, args) => {
                if name == class {
                    return true;
                }
                if args.iter().any(|a| self.reaches(a, class, seen)) {
                    return true;
                }
                if !seen.insert(name.clone()) {
                    return false;
                }
                let Some(c) = self.classes.get(name) else { return false };
                self.fields(c).unwrap_or_default().iter().any(|(_, ft, _)| self.reaches(ft, class, seen))
            }
            _ => false,
        }
    }

    /// The serialized fields of `c` in Caucho's order: (name, type, declaring class).
    fn fields(&self, c: &ClassFile) -> Result<Vec<(String, JType, String)>, Error> {
        let (mut first, mut rest) = (Vec::new(), Vec::new());
        let mut cur = Some(c);
        while let Some(k) = cur {
            for f in &k.fields {
                if f.flags & (ACC_STATIC | ACC_TRANSIENT) != 0 {
                    continue;
                }
                let sig = f.signature.as_deref().unwrap_or(&f.descriptor);
                let t = jtype::field(sig).ok_or_else(|| Error::Descriptor {
                    class: k.name.clone(),
                    member: f.name.clone(),
                    descriptor: sig.to_owned(),
                })?;
                let entry = (f.name.clone(), t, k.name.clone());
                if early(&entry.1) {
                    first.push(entry);
                } else {
                    rest.push(entry);
                }
            }
            cur = match k.superclass.as_deref() {
                None | Some("java.lang.Object") => None,
                Some(s) => Some(self.classes.get(s).ok_or_else(|| Error::Unmapped {
                    class: k.name.clone(),
                    member: "its superclass".into(),
                    reason: format!("{s} is not in the input"),
                })?),
            };
        }
        first.extend(rest);
        Ok(first)
    }

    fn class(&mut self, name: &str) -> Result<String, Error> {
        let c = self.classes.get(name).ok_or_else(|| Error::NotFound(name.to_owned()))?;
        let mut out = String::new();
        if c.flags & ACC_ENUM != 0 && c.superclass.as_deref() == Some("java.lang.Enum") {
            let _ = writeln!(out, "/// The Java enum `{name}`.");
            let _ = writeln!(out, "#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]");
            let _ = writeln!(out, "#[serde(rename = \"{name}\")]");
            let _ = writeln!(out, "pub enum {} {{", simple(name));
            for f in c.fields.iter().filter(|f| f.flags & ACC_ENUM != 0) {
                let _ = writeln!(out, "    #[serde(rename = \"{}\")]\n    {},", f.name, camel(&f.name));
            }
            out.push_str("}\n");
            return Ok(out);
        }
        if c.flags & ACC_INTERFACE != 0 {
            return Err(Error::Unmapped {
                class: name.to_owned(),
                member: "the type itself".into(),
                reason: "an interface has no fields to map; use a concrete class".into(),
            });
        }
        let fields = self.fields(c)?;
        let mut names = BTreeSet::new();
        let _ = writeln!(out, "/// The Java class `{name}` (fields in the order Caucho's serializer writes them).");
        let _ = writeln!(out, "#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]");
        let _ = writeln!(out, "#[serde(rename = \"{name}\")]");
        let _ = writeln!(out, "pub struct {} {{", simple(name));
        for (fname, t, declaring) in fields {
            if !names.insert(fname.clone()) {
                return Err(Error::Unmapped {
                    class: name.to_owned(),
                    member: fname,
                    reason: format!("a field of this name is declared both in {declaring} and in a subclass"),
                });
            }
            let member = format!("field {fname}");
            let mut ty = self.rust(&t, name, &member)?;
            if self.reaches(&t, name, &mut BTreeSet::new())
                && matches!(t, JType::Class(ref n, _) if self.classes.get(n).is_some())
            {
                ty = format!("Option<Box<{ty}>>");
            }
            let rname = snake(&fname);
            if rname.trim_start_matches("r#") != fname {
                let _ = writeln!(out, "    #[serde(rename = \"{fname}\")]");
            }
            if ty == "Vec<u8>" {
                let _ = writeln!(out, "    #[serde(with = \"serde_bytes\")]");
            }
            let _ = writeln!(out, "    pub {rname}: {ty},");
        }
        out.push_str("}\n");
        Ok(out)
    }
}

/// The name Caucho's skeleton gives a parameter type in a mangled method name
/// (`add_int_string`): `AbstractSkeleton.mangleClass` of the Java type
/// ([`hessian::serde::mangle::mangle_java_class`]).
fn mangle(t: &JType) -> String {
    hessian::serde::mangle::mangle_java_class(&java_name(t))
}

/// The Java name of a type as `Class.getName` spells it for the mangling (`int`, `int[]`, `[B`
/// for `byte[]`, `java.util.List`; a type variable is erased to `java.lang.Object`).
fn java_name(t: &JType) -> String {
    match t {
        JType::Primitive(c) => match c {
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
        .to_owned(),
        JType::Array(inner) if **inner == JType::Primitive('B') => "[B".to_owned(),
        JType::Array(inner) => format!("{}[]", java_name(inner)),
        JType::Class(n, _) => n.clone(),
        JType::Variable(_) => "java.lang.Object".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangled_parameter_names_are_the_skeletons() {
        let class = |n: &str| JType::Class(n.into(), vec![]);
        assert_eq!(mangle(&JType::Primitive('S')), "int");
        assert_eq!(mangle(&JType::Primitive('F')), "double");
        assert_eq!(mangle(&class("java.lang.Integer")), "int");
        assert_eq!(mangle(&class("java.util.List")), "List");
        assert_eq!(mangle(&JType::Array(Box::new(JType::Primitive('B')))), "binary");
        assert_eq!(mangle(&JType::Array(Box::new(JType::Primitive('I')))), "[int");
        assert_eq!(mangle(&class("org.example.codegen.Circle")), "Circle");
    }

    #[test]
    fn names() {
        assert_eq!(snake("getItems"), "get_items");
        assert_eq!(snake("URLPath"), "url_path");
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("x2Y"), "x2_y");
        assert_eq!(camel("RED_WINE"), "RedWine");
        assert_eq!(simple("com.x.Outer$Inner"), "Inner");
    }

    #[test]
    fn malformed_class_files_are_errors_not_panics() {
        let mut c = Classes::default();
        assert!(matches!(c.add_class(b"", "x.class"), Err(Error::ClassFile { .. })));
        assert!(matches!(
            c.add_class(b"\xca\xfe\xba\xbe\0\0\0\x3d\0\x05\x01\0\x03abc", "x.class"),
            Err(Error::ClassFile { .. })
        ));
        let mut bytes = vec![0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x3d, 0xff, 0xff];
        for n in 0..64u8 {
            bytes.push(n.wrapping_mul(37));
            let _ = c.add_class(&bytes, "fuzz.class");
        }
    }
}
