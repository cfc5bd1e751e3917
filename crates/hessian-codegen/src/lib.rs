//! Rust from compiled Java: reads the class files of a service interface and of the classes its
//! methods take and return (from `.class` files, directories of them, or jars), and writes the
//! Rust a client or server of that service needs with `hessian-rpc`:
//!
//! - a serde struct per class, named by the Java class (`#[serde(rename = "com.example.Money")]`),
//!   its fields in the order Caucho's serializer writes them (the class's primitive and
//!   `java.lang` fields, then its superclasses', then the other fields likewise), so that the
//!   Rust side writes the bytes Java writes;
//! - a Rust enum per Java enum (unit variants, renamed to the Java constants);
//! - a struct per exception a method declares (`throws`): the exception's own fields, its
//!   `message` and its `cause`; and per method that declares exceptions an error enum
//!   (`GetError`: a variant per exception, `Service(ServiceError)`, `Rpc(hessian_rpc::Error)`)
//!   that the typed client returns (`#[hessian(throws)]`) and a server sends as Java does;
//! - the service trait for `#[hessian_rpc::service]`, one `async fn` per interface method, with
//!   the Java method name and its Java signature in the doc comment.
//!
//! Types map as `docs/serde-mapping.md` describes. A field, a method's return value, a list
//! element or a map value of a reference type is an `Option` (in Java any reference may be
//! null) unless [`Options::non_null`] names it, its class or its method;
//! primitives map to Rust primitives, boxed ones to `Option` (or plain, [`Options::boxed_non_null`]),
//! `String`, dates to `SystemTime` ([`Options::dates`]), lists, sets and arrays to `Vec`, maps
//! to `HashMap` (`BTreeMap` for sorted maps; [`Options::maps`]), `byte[]` to bytes, `Object` and
//! type variables to `hessian::Value`; a class the generator cannot map is an [`Error::Unmapped`]
//! naming the class and the field. A field whose type leads back to its own class is
//! `Option<Box<T>>`. The generated code uses only `hessian_rpc` (which re-exports `hessian`
//! and `serde_bytes`) and `serde`, and has no inner attributes, so that a build script can write
//! it to `OUT_DIR` for `include!` ([`generate_to_file`]).

#![deny(missing_docs)]

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

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
    /// An entry of [`Options::non_null`] that names no class or field of the generated code.
    #[error("--non-null {0}: no generated class, field, interface or method of that name")]
    UnknownNonNull(String),
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

/// How dates map to Rust ([`Options::dates`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum DateType {
    /// `std::time::SystemTime` for fields (`#[serde(with = "hessian_rpc::hessian::serde::date::system_time")]`);
    /// inside lists and maps and in method signatures, where a `with` attribute cannot reach,
    /// `hessian::serde::Date`.
    #[default]
    SystemTime,
    /// `hessian::serde::Date` (milliseconds since the epoch) everywhere.
    HessianDate,
    /// `chrono::DateTime<chrono::Utc>` for fields (hessian-rpc's `chrono` feature and the
    /// `chrono` crate); `hessian::serde::Date` elsewhere.
    Chrono,
    /// `time::OffsetDateTime` for fields (hessian-rpc's `time` feature and the `time` crate);
    /// `hessian::serde::Date` elsewhere.
    Time,
}

/// How maps map to Rust ([`Options::maps`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapType {
    /// `HashMap`, and `BTreeMap` for the sorted maps (`TreeMap`, `SortedMap`, `NavigableMap`).
    #[default]
    Hash,
    /// `BTreeMap` for every map (sorted by key).
    BTree,
    /// `indexmap::IndexMap` for every map (`hessian_rpc::indexmap`, hessian-rpc's `indexmap`
    /// feature): the order of the wire, which is a `LinkedHashMap`'s insertion order.
    Index,
}

/// Choices of the generated code. The defaults are Java's: every field of a reference type may
/// be null.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Values declared non-null: `Class` (all its fields) or `Class.field` (the Java field
    /// name), and `Interface.method` (the method's return value) or `Interface` (every
    /// method's); `Class` the simple or the binary name (`Item`, `com.acme.Item.name`). An
    /// entry also covers the elements of the lists and arrays and the values of the maps in
    /// those values (and, for a method, in its parameters). Their Rust type is not an
    /// `Option`; a null in them is a decode error naming the class and field. An entry that
    /// matches no class, field, interface or method is an [`Error::UnknownNonNull`].
    pub non_null: Vec<String>,
    /// Boxed primitives (`Integer`, …) as plain Rust primitives everywhere (fields, list
    /// elements, map values, method signatures) instead of `Option`.
    pub boxed_non_null: bool,
    /// How dates map.
    pub dates: DateType,
    /// How maps map.
    pub maps: MapType,
}

/// The Rust for the service interface `service` (its binary name, `com.example.Api`) and every
/// class its methods reach, with the default [`Options`].
pub fn generate(classes: &Classes, service: &str) -> Result<String, Error> {
    generate_with(classes, service, &Options::default())
}

/// Generates into a file, as a build script does: reads `inputs` (class files, directories of
/// them, jars) and writes the Rust for `service` to `out` (e.g. `$OUT_DIR/inventory.rs`, then
/// `include!(concat!(env!("OUT_DIR"), "/inventory.rs"))`). Prints `cargo:rerun-if-changed`
/// for each input.
pub fn generate_to_file(
    inputs: &[impl AsRef<Path>],
    service: &str,
    options: &Options,
    out: impl AsRef<Path>,
) -> Result<(), Error> {
    let mut classes = Classes::default();
    for i in inputs {
        println!("cargo:rerun-if-changed={}", i.as_ref().display());
        classes.add_path(i.as_ref())?;
    }
    let src = generate_with(&classes, service, options)?;
    let out = out.as_ref();
    std::fs::write(out, src).map_err(|source| Error::Io { path: out.display().to_string(), source })
}

/// The Rust for the service interface `service` and every class its methods reach, with
/// `options`.
pub fn generate_with(classes: &Classes, service: &str, options: &Options) -> Result<String, Error> {
    let api = classes.get(service).ok_or_else(|| Error::NotFound(service.to_owned()))?;
    if api.flags & ACC_INTERFACE == 0 {
        return Err(Error::NotAnInterface(service.to_owned()));
    }
    let mut g = Gen {
        classes,
        options,
        wanted: BTreeSet::new(),
        exceptions: BTreeSet::new(),
        done: BTreeMap::new(),
        used_non_null: BTreeSet::new(),
    };
    let trait_src = g.service(api)?;
    // every class the methods reach, and the classes those reach, in name order
    loop {
        if let Some(name) = g.exceptions.iter().find(|n| !g.done.contains_key(*n)).cloned() {
            let src = g.exception(&name)?;
            g.done.insert(name, src);
        } else if let Some(name) = g.wanted.iter().find(|n| !g.done.contains_key(*n)).cloned() {
            let src = g.class(&name)?;
            g.done.insert(name, src);
        } else {
            break;
        }
    }
    if let Some(unknown) = options.non_null.iter().find(|n| !g.used_non_null.contains(*n)) {
        return Err(Error::UnknownNonNull(unknown.clone()));
    }
    let mut features = Vec::new();
    if g.done.values().any(|s| s.contains("hessian_rpc::indexmap")) {
        features.push("`indexmap`");
    }
    if g.done.values().any(|s| s.contains("chrono::")) {
        features.push("`chrono`");
    }
    if g.done.values().any(|s| s.contains("time::OffsetDateTime")) {
        features.push("`time`");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by `hessian codegen` from the class files of `{service}`: do not edit, generate\n\
         // again. Needs the crates `serde` (with `derive`) and `hessian-rpc`{}. No inner attributes,\n\
         // so that it can be `include!`d (e.g. from `OUT_DIR`).\n",
        if features.is_empty() {
            String::new()
        } else {
            format!(" (with its feature{} {})", if features.len() > 1 { "s" } else { "" }, features.join(" and "))
        }
    );
    out.push_str("use serde::{Deserialize, Serialize};\n\n");
    out.push_str(&trait_src);
    for src in g.done.values() {
        out.push('\n');
        out.push_str(src);
    }
    Ok(out)
}

struct Gen<'a> {
    classes: &'a Classes,
    options: &'a Options,
    /// Input classes the generated code refers to.
    wanted: BTreeSet<String>,
    /// Exception classes the methods declare (generated with a message and a cause).
    exceptions: BTreeSet<String>,
    /// The entries of `options.non_null` that matched a class or field.
    used_non_null: BTreeSet<String>,
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

/// Java's exception base classes: the walk up an exception's superclasses stops at them (their
/// fields are `Throwable`'s, which the generated struct holds as its message and cause).
const THROWABLES: &[&str] =
    &["java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException", "java.lang.Error"];

/// Sorted map classes: `BTreeMap` with the default [`MapType`].
const SORTED_MAPS: &[&str] = &[
    "java.util.TreeMap",
    "java.util.SortedMap",
    "java.util.NavigableMap",
    "java.util.concurrent.ConcurrentSkipListMap",
];

/// A Java type as Java source spells it with simple names: `List<Item>`, `long`, `byte[]`.
fn java_sig(t: &JType) -> String {
    match t {
        JType::Primitive(_) => java_name(t),
        JType::Array(inner) => format!("{}[]", java_sig(inner)),
        JType::Variable(v) => v.clone(),
        JType::Class(n, args) if args.is_empty() => simple(n).to_owned(),
        JType::Class(n, args) => {
            format!("{}<{}>", simple(n), args.iter().map(java_sig).collect::<Vec<_>>().join(", "))
        }
    }
}

/// A boxed primitive's Rust primitive.
fn boxed(name: &str) -> Option<&'static str> {
    Some(match name {
        "java.lang.Boolean" => "bool",
        "java.lang.Byte" => "i8",
        "java.lang.Short" => "i16",
        "java.lang.Integer" => "i32",
        "java.lang.Long" => "i64",
        "java.lang.Float" => "f32",
        "java.lang.Double" => "f64",
        "java.lang.Character" => "char",
        _ => return None,
    })
}

fn is_date(name: &str) -> bool {
    matches!(name, "java.util.Date" | "java.sql.Timestamp" | "java.sql.Date")
}

/// `get` -> `Get`, `area_1` -> `Area1`.
fn upper_camel(snake_name: &str) -> String {
    let mut out = String::new();
    for part in snake_name.trim_start_matches("r#").split('_').filter(|p| !p.is_empty()) {
        let mut cs = part.chars();
        if let Some(f) = cs.next() {
            out.extend(f.to_uppercase());
            out.extend(cs);
        }
    }
    out
}

impl Gen<'_> {
    /// The Rust type of a value of type `t` that Java may set to null: an `Option` for a
    /// reference type unless `non_null` (boxed primitives: unless `non_null` or
    /// [`Options::boxed_non_null`]); `Object` and type variables are `hessian::Value`, which
    /// has its own null. `non_null` also covers the elements and map values inside `t`.
    fn value_type(&mut self, t: &JType, class: &str, member: &str, non_null: bool) -> Result<String, Error> {
        let ty = self.rust(t, class, member, non_null)?;
        Ok(match t {
            JType::Primitive(_) | JType::Variable(_) => ty,
            JType::Class(n, _) if n == "java.lang.Object" => ty,
            JType::Class(n, _) if boxed(n).is_some() && self.options.boxed_non_null => ty,
            _ if non_null => ty,
            _ => format!("Option<{ty}>"),
        })
    }

    /// The Rust type of `t` itself (never an `Option`: boxed primitives are plain), met as
    /// `member` of `class`, its list elements and map values as [`value_type`](Self::value_type)
    /// with `non_null`; records input classes it names.
    fn rust(&mut self, t: &JType, class: &str, member: &str, non_null: bool) -> Result<String, Error> {
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
            JType::Variable(_) => "hessian_rpc::hessian::Value".to_owned(),
            JType::Array(inner) => match **inner {
                JType::Primitive('B') => "Vec<u8>".to_owned(),
                _ => format!("Vec<{}>", self.value_type(inner, class, member, non_null)?),
            },
            JType::Class(name, args) => {
                // an element or map value (`nullable`), or a map key (never null here)
                let arg = |g: &mut Self, i: usize, nullable: bool| match args.get(i) {
                    Some(a) if nullable => g.value_type(a, class, member, non_null),
                    Some(a) => g.rust(a, class, member, non_null),
                    None => Ok("hessian_rpc::hessian::Value".to_owned()),
                };
                if let Some(p) = boxed(name) {
                    return Ok(p.to_owned());
                }
                match name.as_str() {
                    "java.lang.String" => "String".to_owned(),
                    "java.lang.Object" => "hessian_rpc::hessian::Value".to_owned(),
                    n if is_date(n) => "hessian_rpc::hessian::serde::Date".to_owned(),
                    "java.util.List"
                    | "java.util.ArrayList"
                    | "java.util.LinkedList"
                    | "java.util.Collection"
                    | "java.util.Set"
                    | "java.util.HashSet"
                    | "java.util.TreeSet"
                    | "java.util.SortedSet"
                    | "java.util.LinkedHashSet"
                    | "java.util.Vector"
                    | "java.lang.Iterable" => format!("Vec<{}>", arg(self, 0, true)?),
                    "java.util.Map"
                    | "java.util.HashMap"
                    | "java.util.TreeMap"
                    | "java.util.SortedMap"
                    | "java.util.NavigableMap"
                    | "java.util.LinkedHashMap"
                    | "java.util.Hashtable"
                    | "java.util.concurrent.ConcurrentHashMap"
                    | "java.util.concurrent.ConcurrentSkipListMap" => {
                        let k = arg(self, 0, false)?;
                        let keys = ["String", "i8", "i16", "i32", "i64", "bool", "char"];
                        if !keys.contains(&k.as_str()) && !self.is_enum(args.first()) {
                            return Err(unmapped(format!("{name} with keys of type {k}, which is not hashable")));
                        }
                        let map = match self.options.maps {
                            MapType::Index => "hessian_rpc::indexmap::IndexMap",
                            MapType::BTree => "std::collections::BTreeMap",
                            MapType::Hash if SORTED_MAPS.contains(&name.as_str()) => "std::collections::BTreeMap",
                            MapType::Hash => "std::collections::HashMap",
                        };
                        format!("{map}<{k}, {}>", arg(self, 1, true)?)
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

    /// Whether the field `field` of `class` is declared non-null ([`Options::non_null`]);
    /// records the entries that match.
    fn non_null(&mut self, class: &str, field: &str) -> bool {
        let mut hit = false;
        for e in &self.options.non_null {
            let (c, f) = match e.rsplit_once('.') {
                // `Class.field` or a binary class name with dots
                Some((c, f)) if f == field && (c == class || c == simple(class)) => (c, Some(f)),
                _ => (e.as_str(), None),
            };
            if f.is_some() || c == class || c == simple(class) {
                self.used_non_null.insert(e.clone());
                hit = true;
            }
        }
        hit
    }

    /// A struct field's Rust type and the serde `with` module it needs: a reference type is an
    /// `Option` unless the field is declared non-null.
    fn field_type(&mut self, t: &JType, class: &str, fname: &str) -> Result<(String, Option<String>), Error> {
        let member = format!("field {fname}");
        let non_null = self.non_null(class, fname);
        let opt = |ty: String| if non_null { ty } else { format!("Option<{ty}>") };
        let with = |module: &str| {
            let m = if non_null { module.to_owned() } else { format!("option_{module}") };
            Some(format!("hessian_rpc::hessian::serde::date::{m}"))
        };
        Ok(match t {
            JType::Primitive(_) | JType::Variable(_) => (self.rust(t, class, &member, non_null)?, None),
            JType::Array(inner) if **inner == JType::Primitive('B') => {
                (opt("Vec<u8>".into()), Some("hessian_rpc::serde_bytes".into()))
            }
            JType::Class(n, _) if n == "java.lang.Object" => (self.rust(t, class, &member, non_null)?, None),
            JType::Class(n, _) if boxed(n).is_some() => {
                let p = boxed(n).unwrap_or("()").to_owned();
                (if non_null || self.options.boxed_non_null { p } else { format!("Option<{p}>") }, None)
            }
            JType::Class(n, _) if is_date(n) => match self.options.dates {
                DateType::SystemTime => (opt("std::time::SystemTime".into()), with("system_time")),
                DateType::HessianDate => (opt("hessian_rpc::hessian::serde::Date".into()), None),
                DateType::Chrono => (opt("chrono::DateTime<chrono::Utc>".into()), with("chrono_utc")),
                DateType::Time => (opt("time::OffsetDateTime".into()), with("offset_date_time")),
            },
            _ => {
                let ty = self.rust(t, class, &member, non_null)?;
                if self.reaches(t, class, &mut BTreeSet::new())
                    && matches!(t, JType::Class(ref n, _) if self.classes.get(n).is_some())
                {
                    (format!("Option<Box<{ty}>>"), None)
                } else {
                    (opt(ty), None)
                }
            }
        })
    }

    fn is_enum(&self, t: Option<&JType>) -> bool {
        matches!(t, Some(JType::Class(n, _)) if self.classes.get(n).is_some_and(|c| c.flags & ACC_ENUM != 0))
    }

    fn service(&mut self, api: &ClassFile) -> Result<String, Error> {
        let methods = interface_methods(api)?;
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for m in &methods {
            *count.entry(m.name.as_str()).or_default() += 1;
        }
        let mut used: BTreeMap<String, usize> = BTreeMap::new();
        let mut out = String::new();
        let mut errors = String::new();
        let _ = writeln!(out, "/// The Java interface `{}`.", api.name);
        let _ = writeln!(out, "#[hessian_rpc::service(api = \"{}\")]", api.name);
        let _ = writeln!(out, "pub trait {} {{", simple(&api.name));
        for m in &methods {
            let (params, ret) = (&m.params, m.returns.clone());
            // `Interface.method` (or `Interface`) in `non_null`: its return value, and the
            // elements of its return value and parameters, are not null
            let non_null = self.non_null(&api.name, &m.name);
            let mut args = Vec::new();
            let mut java_params = Vec::new();
            for (i, p) in params.iter().enumerate() {
                let jname = m.param_names.get(i).cloned().flatten();
                let pname = jname.as_deref().map_or_else(|| format!("arg{i}"), snake);
                // a parameter is what the caller passes: plain, but for boxed primitives
                let member = format!("{}(parameter {})", m.name, i + 1);
                let ty = match p {
                    JType::Class(n, _) if boxed(n).is_some() => self.value_type(p, &api.name, &member, non_null)?,
                    _ => self.rust(p, &api.name, &member, non_null)?,
                };
                java_params.push(match &jname {
                    Some(n) => format!("{} {n}", java_sig(p)),
                    None => java_sig(p),
                });
                args.push(format!("{pname}: {ty}"));
            }
            let rust_ret = self.value_type(&ret, &api.name, &format!("{}(return)", m.name), non_null)?;
            let base = snake(&m.name);
            let n = used.entry(base.clone()).or_default();
            let rust_name = if *n == 0 { base } else { format!("{base}_{n}") };
            *n += 1;
            let throws = if m.exceptions.is_empty() {
                String::new()
            } else {
                format!(" throws {}", m.exceptions.iter().map(|e| simple(e)).collect::<Vec<_>>().join(", "))
            };
            let _ = writeln!(out, "    /// Java: `{} {}({}){throws}`", java_sig(&ret), m.name, java_params.join(", "));
            let mut attr = format!("name = \"{}\"", m.name);
            if count[m.name.as_str()] > 1 {
                let mangled: Vec<String> = m.params.iter().map(mangle).collect();
                let _ = write!(attr, ", params = \"{}\"", mangled.join(", "));
            }
            let error = if m.exceptions.is_empty() {
                "hessian_rpc::ServiceError".to_owned()
            } else {
                attr.push_str(", throws");
                let name = format!("{}Error", upper_camel(&rust_name));
                errors.push('\n');
                errors.push_str(&self.error_enum(&name, &api.name, &m.name, &m.exceptions));
                name
            };
            let _ = writeln!(out, "    #[hessian({attr})]");
            let _ = writeln!(
                out,
                "    async fn {rust_name}(&self{}{}) -> Result<{rust_ret}, {error}>;",
                if args.is_empty() { "" } else { ", " },
                args.join(", ")
            );
        }
        out.push_str("}\n");
        out.push_str(&errors);
        Ok(out)
    }

    /// The error enum `name` of the method `method` of `api`, which declares `exceptions`.
    fn error_enum(&mut self, name: &str, api: &str, method: &str, exceptions: &[String]) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "/// The errors of `{}.{method}`: the exceptions it declares, another Java exception\n\
             /// (`Service`, what an implementation returns for an undeclared one), or a failure of the\n\
             /// call (`Rpc`: the client's transport and codec errors, a fault of an exception class the\n\
             /// method does not declare with everything the server sent, or a declared exception whose\n\
             /// detail does not fit its fields, `hessian_rpc::Error::Exception`).",
            simple(api)
        );
        let _ = writeln!(out, "#[derive(Debug)]\npub enum {name} {{");
        for e in exceptions {
            self.exceptions.insert(e.clone());
            let _ = writeln!(out, "    /// `{e}`.\n    {s}({s}),", s = simple(e));
        }
        out.push_str("    /// Another Java exception.\n    Service(hessian_rpc::ServiceError),\n");
        out.push_str("    /// The call failed otherwise.\n    Rpc(hessian_rpc::Error),\n}\n\n");
        let _ = writeln!(out, "impl std::fmt::Display for {name} {{");
        out.push_str(
            "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        match self {\n",
        );
        for e in exceptions {
            let _ = writeln!(out, "            {name}::{}(e) => e.fmt(f),", simple(e));
        }
        let _ = writeln!(out, "            {name}::Service(e) => e.fmt(f),\n            {name}::Rpc(e) => e.fmt(f),");
        out.push_str("        }\n    }\n}\n\n");
        let _ = writeln!(out, "impl std::error::Error for {name} {{}}\n");
        for e in exceptions {
            let _ = writeln!(
                out,
                "impl From<{s}> for {name} {{\n    fn from(e: {s}) -> Self {{\n        {name}::{s}(e)\n    }}\n}}\n",
                s = simple(e)
            );
        }
        let _ = writeln!(
            out,
            "impl From<hessian_rpc::ServiceError> for {name} {{\n    fn from(e: hessian_rpc::ServiceError) -> Self {{\n        {name}::Service(e)\n    }}\n}}\n"
        );
        let _ = writeln!(out, "/// A typed client's error: a fault of a declared exception becomes its variant.");
        let _ = writeln!(out, "impl From<hessian_rpc::Error> for {name} {{");
        out.push_str("    fn from(e: hessian_rpc::Error) -> Self {\n");
        let _ = writeln!(out, "        let hessian_rpc::Error::Fault(fault) = e else {{ return {name}::Rpc(e) }};");
        out.push_str("        match fault.exception_class() {\n");
        for e in exceptions {
            let _ = writeln!(
                out,
                "            Some(\"{e}\") => match hessian_rpc::fault::decode_exception::<{s}>(&fault) {{\n\
                 \x20               Ok((mut x, cause)) => {{\n\
                 \x20                   x.cause = cause.map(Box::new);\n\
                 \x20                   {name}::{s}(x)\n\
                 \x20               }}\n\
                 \x20               Err(error) => {name}::Rpc(hessian_rpc::Error::Exception {{ fault, error }}),\n\
                 \x20           }},",
                s = simple(e)
            );
        }
        let _ =
            writeln!(out, "            _ => {name}::Rpc(hessian_rpc::Error::Fault(fault)),\n        }}\n    }}\n}}\n");
        let _ = writeln!(out, "/// A server's error: a declared exception is sent with its fields, as Java sends it.");
        let _ = writeln!(out, "impl hessian_rpc::IntoFault for {name} {{");
        out.push_str("    fn into_fault(self) -> hessian_rpc::Fault {\n        match self {\n");
        for e in exceptions {
            let _ =
                writeln!(out, "            {name}::{s}(e) => hessian_rpc::fault::exception_fault(&e),", s = simple(e));
        }
        let _ = writeln!(out, "            {name}::Service(e) => e.into_fault(),");
        let _ = writeln!(out, "            {name}::Rpc(hessian_rpc::Error::Fault(f)) => f.into_inner(),");
        let _ = writeln!(out, "            {name}::Rpc(e) => hessian_rpc::ServiceError::from(e).into_fault(),");
        out.push_str("        }\n    }\n}\n");
        out
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
                self.fields(c, false).unwrap_or_default().iter().any(|(_, ft, _)| self.reaches(ft, class, seen))
            }
            _ => false,
        }
    }

    /// The serialized fields of `c` in Caucho's order: (name, type, declaring class). For an
    /// exception (`exception`), the walk up the superclasses stops at Java's exception classes
    /// or at the first superclass not in the input.
    fn fields(&self, c: &ClassFile, exception: bool) -> Result<Vec<(String, JType, String)>, Error> {
        class_fields(self.classes, c, exception)
    }

    /// The struct lines of `fields` of `class`.
    fn field_lines(
        &mut self,
        class: &str,
        fields: Vec<(String, JType, String)>,
        out: &mut String,
    ) -> Result<BTreeSet<String>, Error> {
        let mut names = BTreeSet::new();
        for (fname, t, declaring) in fields {
            if !names.insert(fname.clone()) {
                return Err(Error::Unmapped {
                    class: class.to_owned(),
                    member: fname,
                    reason: format!("a field of this name is declared both in {declaring} and in a subclass"),
                });
            }
            let (ty, with) = self.field_type(&t, class, &fname)?;
            let rname = snake(&fname);
            let _ = writeln!(out, "    /// Java: `{} {fname}`.", java_sig(&t));
            if rname.trim_start_matches("r#") != fname {
                let _ = writeln!(out, "    #[serde(rename = \"{fname}\")]");
            }
            if let Some(w) = with {
                let _ = writeln!(out, "    #[serde(with = \"{w}\")]");
            }
            let _ = writeln!(out, "    pub {rname}: {ty},");
            names.insert(rname);
        }
        Ok(names)
    }

    fn class(&mut self, name: &str) -> Result<String, Error> {
        let c = self.classes.get(name).ok_or_else(|| Error::NotFound(name.to_owned()))?;
        let mut out = String::new();
        if c.flags & ACC_ENUM != 0 && c.superclass.as_deref() == Some("java.lang.Enum") {
            let _ = writeln!(out, "/// The Java enum `{name}`.");
            let _ = writeln!(
                out,
                "#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]"
            );
            let _ = writeln!(out, "#[serde(rename = \"{name}\")]");
            let _ = writeln!(out, "pub enum {} {{", simple(name));
            for f in c.fields.iter().filter(|f| f.flags & ACC_ENUM != 0) {
                let _ = writeln!(
                    out,
                    "    /// `{}`.\n    #[serde(rename = \"{}\")]\n    {},",
                    f.name,
                    f.name,
                    camel(&f.name)
                );
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
        let fields = self.fields(c, false)?;
        let _ = writeln!(out, "/// The Java class `{name}` (fields in the order Caucho's serializer writes them).");
        let _ = writeln!(out, "#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]");
        let _ = writeln!(out, "#[serde(rename = \"{name}\")]");
        let _ = writeln!(out, "pub struct {} {{", simple(name));
        self.field_lines(name, fields, &mut out)?;
        out.push_str("}\n");
        Ok(out)
    }

    /// The struct of a declared exception: its own fields (those of its superclasses up to
    /// Java's exception classes), its message and its cause. A class not in the input (a JDK
    /// exception) has only the message and the cause.
    fn exception(&mut self, name: &str) -> Result<String, Error> {
        let fields = match self.classes.get(name) {
            Some(c) => self.fields(c, true)?,
            None => Vec::new(),
        };
        let s = simple(name);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "/// The Java exception `{name}`: its fields (in the order Caucho's serializer writes them),\n\
             /// its message and its cause."
        );
        let _ = writeln!(out, "#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]");
        let _ = writeln!(out, "#[serde(rename = \"{name}\")]");
        let _ = writeln!(out, "pub struct {s} {{");
        // Caucho writes these before Throwable's detailMessage and cause, the others after
        let early_fields: Vec<String> =
            fields.iter().filter(|(_, t, _)| early(t)).map(|(n, _, _)| format!("\"{n}\"")).collect();
        let names = self.field_lines(name, fields, &mut out)?;
        if names.contains("message") || names.contains("cause") {
            return Err(Error::Unmapped {
                class: name.to_owned(),
                member: "field message or cause".into(),
                reason: "the names of the exception's own message and cause in the generated struct".into(),
            });
        }
        out.push_str("    /// The message (`getMessage()`).\n    #[serde(rename = \"detailMessage\")]\n    pub message: Option<String>,\n");
        out.push_str(
            "    /// The cause (`getCause()`): filled in from the fault by the typed client, sent by the\n    \
             /// server.\n    #[serde(skip)]\n    pub cause: Option<Box<hessian_rpc::ServiceError>>,\n}\n\n",
        );
        let _ = writeln!(out, "impl std::fmt::Display for {s} {{");
        let _ = writeln!(out, "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {{");
        let _ = writeln!(out, "        f.write_str(\"{name}\")?;");
        out.push_str("        if let Some(m) = &self.message {\n            write!(f, \": {m}\")?;\n        }\n");
        out.push_str("        if let Some(c) = &self.cause {\n            write!(f, \" (caused by {c})\")?;\n        }\n        Ok(())\n    }\n}\n\n");
        let _ = writeln!(out, "impl std::error::Error for {s} {{}}\n");
        let _ = writeln!(
            out,
            "/// Its class, and its fields Caucho writes before `Throwable`'s (primitive and `java.lang` types).\n\
             impl hessian_rpc::DeclaredException for {s} {{\n\
             \x20   const CLASS: &'static str = \"{name}\";\n\
             \x20   const EARLY_FIELDS: &'static [&'static str] = &[{}];\n\n\
             \x20   fn message(&self) -> Option<&str> {{\n\
             \x20       self.message.as_deref()\n\
             \x20   }}\n\n\
             \x20   fn cause(&self) -> Option<&hessian_rpc::ServiceError> {{\n\
             \x20       self.cause.as_deref()\n\
             \x20   }}\n\
             }}",
            early_fields.join(", ")
        );
        Ok(out)
    }
}

/// A method of a service interface, as a caller that builds calls at run time needs it
/// (`hessian gateway --api`).
#[derive(Clone, Debug)]
pub struct ApiMethod {
    /// The Java name (`getItems`).
    pub name: String,
    /// The parameter types, generic where the class file has a signature.
    pub params: Vec<JType>,
    /// The parameter names, where the class was compiled with `-parameters`.
    pub param_names: Vec<Option<String>>,
    /// The return type (`JType::Primitive('V')` for `void`).
    pub returns: JType,
    /// The declared exceptions (the `throws` clause), with dots.
    pub exceptions: Vec<String>,
}

impl ApiMethod {
    /// The name Caucho's skeleton also answers to for this method,
    /// `AbstractSkeleton.mangleName(method, false)`: the name and each parameter's mangled
    /// type, `_`-separated (`add_int_string`; `getItems` has none: `getItems`).
    pub fn mangled_name(&self) -> String {
        let mut name = self.name.clone();
        for p in &self.params {
            name.push('_');
            name.push_str(&mangle(p));
        }
        name
    }

    /// The method as Java source declares it, with simple class names:
    /// `List<Item> getItems(int n) throws IOException`.
    pub fn java_signature(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| match self.param_names.get(i).cloned().flatten() {
                Some(n) => format!("{} {n}", java_sig(p)),
                None => java_sig(p),
            })
            .collect();
        let mut sig = format!("{} {}({})", java_sig(&self.returns), self.name, params.join(", "));
        if !self.exceptions.is_empty() {
            sig.push_str(" throws ");
            sig.push_str(&self.exceptions.iter().map(|e| simple(e)).collect::<Vec<_>>().join(", "));
        }
        sig
    }
}

/// The methods of the service interface `service` (its binary name) in declaration order: the
/// abstract, non-static, non-synthetic ones, as `hessian codegen` writes them.
pub fn service_methods(classes: &Classes, service: &str) -> Result<Vec<ApiMethod>, Error> {
    let api = classes.get(service).ok_or_else(|| Error::NotFound(service.to_owned()))?;
    if api.flags & ACC_INTERFACE == 0 {
        return Err(Error::NotAnInterface(service.to_owned()));
    }
    interface_methods(api)
}

/// The abstract methods of the interface `api` (see [`service_methods`]).
fn interface_methods(api: &ClassFile) -> Result<Vec<ApiMethod>, Error> {
    let mut out = Vec::new();
    for m in &api.methods {
        if m.flags & (ACC_STATIC | ACC_SYNTHETIC) != 0 || m.flags & ACC_ABSTRACT == 0 {
            continue;
        }
        let sig = m.signature.as_deref().unwrap_or(&m.descriptor);
        let (params, returns) = jtype::method(sig).ok_or_else(|| Error::Descriptor {
            class: api.name.clone(),
            member: m.name.clone(),
            descriptor: sig.to_owned(),
        })?;
        let param_names = (0..params.len()).map(|i| m.parameters.get(i).filter(|n| !n.is_empty()).cloned()).collect();
        out.push(ApiMethod { name: m.name.clone(), params, param_names, returns, exceptions: m.exceptions.clone() });
    }
    Ok(out)
}

/// The fields Caucho's serializer writes for an object of the class `class`, in its order
/// (its primitive and `java.lang` fields, then its superclasses', then the other fields
/// likewise; no static or transient ones): (name, type).
pub fn serialized_fields(classes: &Classes, class: &str) -> Result<Vec<(String, JType)>, Error> {
    let c = classes.get(class).ok_or_else(|| Error::NotFound(class.to_owned()))?;
    Ok(class_fields(classes, c, false)?.into_iter().map(|(name, t, _)| (name, t)).collect())
}

/// A Java type as Java source spells it with simple class names: `List<Item>`, `long`, `byte[]`.
pub fn java_source_type(t: &JType) -> String {
    java_sig(t)
}

/// The serialized fields of `c` in Caucho's order: (name, type, declaring class). For an
/// exception (`exception`), the walk up the superclasses stops at Java's exception classes
/// or at the first superclass not in the input.
fn class_fields(classes: &Classes, c: &ClassFile, exception: bool) -> Result<Vec<(String, JType, String)>, Error> {
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
            Some(s) if exception && (THROWABLES.contains(&s) || classes.get(s).is_none()) => None,
            Some(s) => Some(classes.get(s).ok_or_else(|| Error::Unmapped {
                class: k.name.clone(),
                member: "its superclass".into(),
                reason: format!("{s} is not in the input"),
            })?),
        };
    }
    first.extend(rest);
    Ok(first)
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
        JType::Primitive(c) => jtype::primitive_name(*c).to_owned(),
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

    fn member(name: &str, descriptor: &str, signature: Option<&str>) -> classfile::Member {
        classfile::Member {
            flags: 0x0001,
            name: name.into(),
            descriptor: descriptor.into(),
            signature: signature.map(str::to_owned),
            parameters: vec![],
            exceptions: vec![],
        }
    }

    /// `interface com.x.Api { Rec m(TreeMap<String, Integer> arg) throws java.io.IOException; }`
    /// and `class com.x.Rec { Integer n; Date d; Map<String, Long> m; String s; List<String> l; }`.
    fn api() -> Classes {
        let mut m = member(
            "m",
            "(Ljava/util/TreeMap;)Lcom/x/Rec;",
            Some("(Ljava/util/TreeMap<Ljava/lang/String;Ljava/lang/Integer;>;)Lcom/x/Rec;"),
        );
        m.flags |= ACC_ABSTRACT;
        m.exceptions = vec!["java.io.IOException".into()];
        let mut c = Classes::default();
        let api = ClassFile {
            flags: ACC_INTERFACE | ACC_ABSTRACT,
            name: "com.x.Api".into(),
            superclass: Some("java.lang.Object".into()),
            fields: vec![],
            methods: vec![m],
        };
        let rec = ClassFile {
            flags: 0x0001,
            name: "com.x.Rec".into(),
            superclass: Some("java.lang.Object".into()),
            fields: vec![
                member("n", "Ljava/lang/Integer;", None),
                member("d", "Ljava/util/Date;", None),
                member("m", "Ljava/util/Map;", Some("Ljava/util/Map<Ljava/lang/String;Ljava/lang/Long;>;")),
                member("s", "Ljava/lang/String;", None),
                member("l", "Ljava/util/List;", Some("Ljava/util/List<Ljava/lang/String;>;")),
            ],
            methods: vec![],
        };
        c.classes.insert(api.name.clone(), api);
        c.classes.insert(rec.name.clone(), rec);
        c
    }

    #[test]
    fn options_choose_nulls_dates_and_maps() {
        let c = api();
        let src = generate(&c, "com.x.Api").unwrap();
        assert!(src.contains("/// Java: `Rec m(TreeMap<String, Integer>) throws IOException`"), "{src}");
        assert!(src.contains("#[hessian(name = \"m\", throws)]"), "{src}");
        assert!(
            src.contains("std::collections::BTreeMap<String, Option<i32>>) -> Result<Option<Rec>, MError>"),
            "{src}"
        );
        assert!(src.contains("pub n: Option<i32>,"), "{src}");
        assert!(src.contains("option_system_time\")]\n    pub d: Option<std::time::SystemTime>,"), "{src}");
        assert!(src.contains("pub m: Option<std::collections::HashMap<String, Option<i64>>>,"), "{src}");
        assert!(src.contains("pub s: Option<String>,"), "{src}");
        assert!(src.contains("pub l: Option<Vec<Option<String>>>,"), "{src}");
        // an exception class not in the input: its message and cause only
        assert!(
            src.contains("#[serde(rename = \"java.io.IOException\")]\npub struct IOException {\n    /// The message")
        );
        assert!(!src.contains("#!["), "no inner attributes, for include!");

        let o = Options {
            non_null: vec!["Rec.s".into(), "com.x.Rec.d".into()],
            boxed_non_null: true,
            dates: DateType::Chrono,
            maps: MapType::Index,
        };
        let src = generate_with(&c, "com.x.Api", &o).unwrap();
        assert!(src.contains("hessian_rpc::indexmap::IndexMap<String, i32>) -> Result<Option<Rec>, MError>"), "{src}");
        assert!(src.contains("pub n: i32,"), "{src}");
        assert!(src.contains("date::chrono_utc\")]\n    pub d: chrono::DateTime<chrono::Utc>,"), "{src}");
        assert!(src.contains("pub m: Option<hessian_rpc::indexmap::IndexMap<String, i64>>,"), "{src}");
        assert!(src.contains("pub s: String,"), "{src}");
        assert!(src.contains("`hessian-rpc` (with its features `indexmap` and `chrono`)"), "{src}");

        let o = Options { non_null: vec!["Rec".into()], maps: MapType::BTree, ..Options::default() };
        let src = generate_with(&c, "com.x.Api", &o).unwrap();
        assert!(src.contains("pub s: String,") && src.contains("pub n: i32,"), "{src}");
        assert!(src.contains("pub m: std::collections::BTreeMap<String, i64>,"), "{src}");
        assert!(src.contains("pub l: Vec<String>,"), "{src}");
        assert!(src.contains("-> Result<Option<Rec>, MError>"), "{src}");
        // a method declared non-null: its return value and the elements of its parameters
        let o = Options { non_null: vec!["Api.m".into()], ..Options::default() };
        let src = generate_with(&c, "com.x.Api", &o).unwrap();
        assert!(src.contains("std::collections::BTreeMap<String, i32>) -> Result<Rec, MError>"), "{src}");
        assert!(src.contains("pub l: Option<Vec<Option<String>>>,"), "{src}");
        for unknown in ["Rec.nope", "Nope", "Api.s"] {
            let o = Options { non_null: vec![unknown.into()], ..Options::default() };
            assert!(matches!(generate_with(&c, "com.x.Api", &o), Err(Error::UnknownNonNull(n)) if n == unknown));
        }
    }

    #[test]
    fn names() {
        assert_eq!(upper_camel("get"), "Get");
        assert_eq!(upper_camel("area_1"), "Area1");
        assert_eq!(upper_camel("r#type"), "Type");
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
