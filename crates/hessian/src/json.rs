//! The lossless typed-JSON mapping between [`Value`] and [`serde_json::Value`], specified in
//! `docs/typed-json.md`.
//!
//! JSON `null`, `true`/`false` and strings stand for themselves; every other Hessian type is a
//! JSON object whose one *tag key* names the type (`{"int": 5}`, `{"long": 10000000000}`,
//! `{"date": "2008-01-10T21:20:00Z"}`, `{"binary": "AAEC"}`, `{"ref": 0}`, …). Untyped
//! fixed-length lists are plain arrays and untyped maps with distinct, non-reserved string keys are
//! plain objects, so that ordinary JSON documents read naturally:
//!
//! ```
//! use hessian::{json, Value};
//! let v = json::from_json(&serde_json::json!({"name": "Ada", "age": 36, "tags": ["x"]})).unwrap();
//! assert_eq!(
//!     v,
//!     Value::map(vec![
//!         (Value::string("name"), Value::string("Ada")),
//!         (Value::string("age"), Value::Int(36)),
//!         (Value::string("tags"), Value::list(vec![Value::string("x")])),
//!     ])
//! );
//! assert_eq!(json::from_json(&json::to_json(&v)).unwrap(), v);
//! assert_eq!(json::to_json(&Value::Long(5)), serde_json::json!({"long": 5}));
//! ```
//!
//! [`to_json`] never fails and [`from_json`] of its output gives back an equal value (doubles
//! compared by bit pattern).

use crate::value::{ClassDef, List, Map, Object, Remote, Value};
use serde_json::{Map as JsonMap, Number, Value as Json};
use std::sync::Arc;

/// The keys that make a JSON object a tagged value. An object holding any of them is read as a
/// tagged value (and must hold exactly one); any other object is an untyped map.
pub const TAG_KEYS: [&str; 15] = [
    "int", "long", "double", "date", "binary", "string", "list", "map", "object", "ref", "remote", "call", "reply",
    "fault", "stream",
];

/// The document tags: reserved everywhere, meaningful only at the top level of a document that
/// holds a whole message (`call`, `reply`, `fault`) or several values written one after another
/// (`stream`); see the `hessian` command-line tool.
pub const DOCUMENT_TAGS: [&str; 4] = ["call", "reply", "fault", "stream"];

/// Default bound on the nesting of lists, maps and objects accepted by [`from_json`] (the same
/// as the decoders' default [`Limits::max_depth`](crate::Limits)).
pub const DEFAULT_MAX_DEPTH: usize = 256;

/// Largest magnitude written as a plain JSON number for longs and dates: every JSON parser
/// (including JavaScript's) reads integers up to 2^53 - 1 exactly.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The bit pattern of the NaN that Java's `Double.doubleToLongBits` produces, written as `"NaN"`.
pub const CANONICAL_NAN_BITS: u64 = 0x7ff8_0000_0000_0000;

/// Why a JSON document is not a valid typed-JSON value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// An object holds two tag keys.
    #[error("an object may hold only one tag key, found \"{0}\" and \"{1}\"")]
    ConflictingTags(String, String),
    /// A key that the tag does not allow.
    #[error("key \"{key}\" is not allowed in a \"{tag}\" value")]
    UnexpectedKey {
        /// The tag of the object.
        tag: &'static str,
        /// The offending key.
        key: String,
    },
    /// A key that the tag requires is missing.
    #[error("a \"{tag}\" value needs the key \"{key}\"")]
    MissingKey {
        /// The tag of the object.
        tag: &'static str,
        /// The missing key.
        key: &'static str,
    },
    /// A JSON value of the wrong JSON type.
    #[error("expected {expected}, found {found}")]
    InvalidType {
        /// What the mapping expected here.
        expected: &'static str,
        /// The JSON type found.
        found: &'static str,
    },
    /// A number that does not fit the tagged type, or a malformed numeric string.
    #[error("invalid {ty}: {detail}")]
    InvalidNumber {
        /// `int`, `long`, `double`, `ref` or `date`.
        ty: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// A malformed or out-of-range date string.
    #[error("invalid date \"{0}\": expected YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM) or milliseconds")]
    InvalidDate(String),
    /// Malformed base64.
    #[error("invalid base64: {0}")]
    InvalidBase64(String),
    /// A document tag (`call`, `reply`, `fault`, `stream`) inside a value.
    #[error("\"{0}\" describes a whole document and is only allowed at its top level")]
    DocumentTagInValue(&'static str),
    /// Nesting deeper than the configured bound.
    #[error("lists, maps and objects nested deeper than {0}")]
    TooDeep(usize),
}

/// A typed-JSON error: what is wrong and where (a path like `$.fields.lines[2]`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at {}", render_path(.path))]
pub struct JsonError {
    /// Path segments from the root, in order (`.key` or `[index]`).
    path: Vec<String>,
    kind: JsonErrorKind,
}

impl JsonError {
    /// An error of `kind` at the root of the document.
    pub fn new(kind: JsonErrorKind) -> Self {
        JsonError { path: Vec::new(), kind }
    }

    /// Prefixes the path with one segment (used while the error travels up the document):
    /// `at(".fields")`, `at("[3]")`.
    pub fn at(mut self, segment: impl Into<String>) -> Self {
        self.path.insert(0, segment.into());
        self
    }

    /// What is wrong.
    pub fn kind(&self) -> &JsonErrorKind {
        &self.kind
    }

    /// Where, as a path from the document root (`$` is the root).
    pub fn path(&self) -> String {
        render_path(&self.path)
    }
}

fn render_path(segments: &[String]) -> String {
    let mut s = String::from("$");
    for seg in segments {
        s.push_str(seg);
    }
    s
}

type JResult<T> = std::result::Result<T, JsonError>;

fn err<T>(kind: JsonErrorKind) -> JResult<T> {
    Err(JsonError::new(kind))
}

fn key_seg(key: &str) -> String {
    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!(".{key}")
    } else {
        format!("[{key:?}]")
    }
}

/// The JSON type name of a JSON value, for error messages.
pub fn json_type_name(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

fn invalid_type<T>(expected: &'static str, found: &Json) -> JResult<T> {
    err(JsonErrorKind::InvalidType { expected, found: json_type_name(found) })
}

// ---------------------------------------------------------------------------------------------
// Value -> JSON
// ---------------------------------------------------------------------------------------------

fn tagged(tag: &str, v: Json) -> Json {
    let mut m = JsonMap::new();
    m.insert(tag.to_owned(), v);
    Json::Object(m)
}

/// A long or millisecond count: a JSON number when every JSON parser reads it exactly,
/// otherwise a decimal string.
fn exact_integer(v: i64) -> Json {
    if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&v) {
        Json::Number(v.into())
    } else {
        Json::String(v.to_string())
    }
}

/// The JSON form of a double inside `{"double": …}`: a number when finite, else a string.
pub fn double_to_json(d: f64) -> Json {
    if let Some(n) = Number::from_f64(d) {
        return Json::Number(n);
    }
    if d == f64::INFINITY {
        Json::String("Infinity".into())
    } else if d == f64::NEG_INFINITY {
        Json::String("-Infinity".into())
    } else if d.to_bits() == CANONICAL_NAN_BITS {
        Json::String("NaN".into())
    } else {
        Json::String(format!("0x{:016x}", d.to_bits()))
    }
}

fn distinct<'a>(mut keys: impl Iterator<Item = &'a str>) -> bool {
    let mut seen = std::collections::HashSet::new();
    keys.all(|k| seen.insert(k))
}

/// Converts a value to typed JSON. Never fails; [`from_json`] reverses it exactly.
pub fn to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => tagged("int", Json::Number((*i).into())),
        Value::Long(l) => tagged("long", exact_integer(*l)),
        Value::Double(d) => tagged("double", double_to_json(*d)),
        Value::Date(ms) => tagged("date", date_to_json(*ms)),
        Value::String(s) => Json::String(s.clone()),
        Value::Binary(b) => tagged("binary", Json::String(base64_encode(b))),
        Value::List(l) => list_to_json(l),
        Value::Map(m) => map_to_json(m),
        Value::Object(o) => object_to_json(o),
        Value::Ref(r) => tagged("ref", Json::Number((*r).into())),
        Value::Remote(r) => {
            let mut m = JsonMap::new();
            m.insert("remote".into(), Json::String(r.url.clone()));
            m.insert("type".into(), Json::String(r.type_name.clone()));
            Json::Object(m)
        }
    }
}

fn list_to_json(l: &List) -> Json {
    let items = Json::Array(l.items.iter().map(to_json).collect());
    if l.type_name.is_none() && l.fixed_length {
        return items;
    }
    let mut m = JsonMap::new();
    if let Some(t) = &l.type_name {
        m.insert("type".into(), Json::String(t.clone()));
    }
    m.insert("list".into(), items);
    if !l.fixed_length {
        m.insert("fixed".into(), Json::Bool(false));
    }
    Json::Object(m)
}

fn map_to_json(m: &Map) -> Json {
    let string_keys: Option<Vec<&str>> = m.entries.iter().map(|(k, _)| k.as_str()).collect();
    let body = match string_keys {
        Some(keys) if distinct(keys.iter().copied()) => {
            let plain = m.type_name.is_none() && !keys.iter().any(|k| TAG_KEYS.contains(k));
            let obj: JsonMap<String, Json> =
                keys.iter().zip(&m.entries).map(|(k, (_, v))| ((*k).to_owned(), to_json(v))).collect();
            if plain {
                return Json::Object(obj);
            }
            Json::Object(obj)
        }
        _ => Json::Array(m.entries.iter().map(|(k, v)| Json::Array(vec![to_json(k), to_json(v)])).collect()),
    };
    let mut out = JsonMap::new();
    if let Some(t) = &m.type_name {
        out.insert("type".into(), Json::String(t.clone()));
    }
    out.insert("map".into(), body);
    Json::Object(out)
}

fn object_to_json(o: &Object) -> Json {
    let names = &o.class.fields;
    let fields = if names.len() == o.fields.len() && distinct(names.iter().map(String::as_str)) {
        Json::Object(names.iter().zip(&o.fields).map(|(k, v)| (k.clone(), to_json(v))).collect())
    } else {
        // Pairs keep duplicate names; a malformed in-memory object (value count differing from
        // the field count) is kept as `[name]` (no value) or `[null, value]` (no name) pairs.
        let n = names.len().max(o.fields.len());
        Json::Array(
            (0..n)
                .map(|i| match (names.get(i), o.fields.get(i)) {
                    (Some(k), Some(v)) => Json::Array(vec![Json::String(k.clone()), to_json(v)]),
                    (Some(k), None) => Json::Array(vec![Json::String(k.clone())]),
                    (None, Some(v)) => Json::Array(vec![Json::Null, to_json(v)]),
                    (None, None) => Json::Array(vec![]),
                })
                .collect(),
        )
    };
    let mut m = JsonMap::new();
    m.insert("object".into(), Json::String(o.class.name.clone()));
    m.insert("fields".into(), fields);
    Json::Object(m)
}

// ---------------------------------------------------------------------------------------------
// JSON -> Value
// ---------------------------------------------------------------------------------------------

/// Converts typed JSON (or plain JSON, see the module documentation) to a value, refusing
/// nesting deeper than [`DEFAULT_MAX_DEPTH`].
pub fn from_json(j: &Json) -> Result<Value, JsonError> {
    from_json_with_max_depth(j, DEFAULT_MAX_DEPTH)
}

/// Like [`from_json`] with an explicit bound on the nesting of lists, maps and objects.
pub fn from_json_with_max_depth(j: &Json, max_depth: usize) -> Result<Value, JsonError> {
    Reader { max_depth }.value(j, 0)
}

struct Reader {
    max_depth: usize,
}

impl Reader {
    fn enter(&self, depth: usize) -> JResult<usize> {
        if depth >= self.max_depth {
            return err(JsonErrorKind::TooDeep(self.max_depth));
        }
        Ok(depth + 1)
    }

    fn value(&self, j: &Json, depth: usize) -> JResult<Value> {
        match j {
            Json::Null => Ok(Value::Null),
            Json::Bool(b) => Ok(Value::Bool(*b)),
            Json::String(s) => Ok(Value::String(s.clone())),
            Json::Number(n) => bare_number(n),
            Json::Array(items) => {
                let items = self.items(items, self.enter(depth)?)?;
                Ok(Value::List(Box::new(List { type_name: None, fixed_length: true, items })))
            }
            Json::Object(m) => self.object(m, depth),
        }
    }

    fn items(&self, items: &[Json], depth: usize) -> JResult<Vec<Value>> {
        items.iter().enumerate().map(|(i, j)| self.value(j, depth).map_err(|e| e.at(format!("[{i}]")))).collect()
    }

    fn object(&self, m: &JsonMap<String, Json>, depth: usize) -> JResult<Value> {
        let mut tag: Option<&'static str> = None;
        for k in m.keys() {
            if let Some(t) = TAG_KEYS.iter().find(|t| **t == k.as_str()) {
                if let Some(first) = tag {
                    return err(JsonErrorKind::ConflictingTags(first.into(), (*t).into()));
                }
                tag = Some(t);
            }
        }
        let Some(tag) = tag else {
            // A plain object: an untyped map with string keys, in document order.
            let depth = self.enter(depth)?;
            let entries = m
                .iter()
                .map(|(k, v)| Ok((Value::String(k.clone()), self.value(v, depth).map_err(|e| e.at(key_seg(k)))?)))
                .collect::<JResult<_>>()?;
            return Ok(Value::Map(Box::new(Map { type_name: None, entries })));
        };
        let allowed: &[&str] = match tag {
            "list" => &["type", "fixed"],
            "map" => &["type"],
            "object" => &["fields"],
            "remote" => &["type"],
            _ => &[],
        };
        if let Some(k) = m.keys().find(|k| k.as_str() != tag && !allowed.contains(&k.as_str())) {
            return err(JsonErrorKind::UnexpectedKey { tag, key: k.clone() });
        }
        let body = &m[tag];
        let seg = format!(".{tag}");
        let r = match tag {
            "int" => int_from_json(body).map(Value::Int),
            "long" => long_from_json(body, "long").map(Value::Long),
            "double" => double_from_json(body).map(Value::Double),
            "date" => date_from_json(body).map(Value::Date),
            "string" => match body {
                Json::String(s) => Ok(Value::String(s.clone())),
                other => invalid_type("a string", other),
            },
            "binary" => match body {
                Json::String(s) => base64_decode(s).map(Value::Binary),
                other => invalid_type("a base64 string", other),
            },
            "ref" => ref_from_json(body).map(Value::Ref),
            "list" => return self.list(m, body, depth),
            "map" => return self.map(m, body, depth),
            "object" => return self.obj(m, body, depth),
            "remote" => {
                let url = match body {
                    Json::String(s) => s.clone(),
                    other => return invalid_type("a URL string", other).map_err(|e: JsonError| e.at(seg)),
                };
                let type_name = match m.get("type") {
                    Some(Json::String(s)) => s.clone(),
                    Some(other) => return invalid_type("a type name string", other).map_err(|e| e.at(".type")),
                    None => return err(JsonErrorKind::MissingKey { tag: "remote", key: "type" }),
                };
                Ok(Value::Remote(Box::new(Remote { type_name, url })))
            }
            _ => {
                // Document tags; the key set is exhausted by TAG_KEYS.
                let t = DOCUMENT_TAGS.iter().find(|t| **t == tag).copied().unwrap_or("call");
                return err(JsonErrorKind::DocumentTagInValue(t));
            }
        };
        r.map_err(|e| e.at(seg))
    }

    fn type_name(m: &JsonMap<String, Json>) -> JResult<Option<String>> {
        match m.get("type") {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.clone())),
            Some(other) => invalid_type("a type name string or null", other).map_err(|e| e.at(".type")),
        }
    }

    fn list(&self, m: &JsonMap<String, Json>, body: &Json, depth: usize) -> JResult<Value> {
        let type_name = Self::type_name(m)?;
        let fixed_length = match m.get("fixed") {
            None => true,
            Some(Json::Bool(b)) => *b,
            Some(other) => return invalid_type("a boolean", other).map_err(|e| e.at(".fixed")),
        };
        let Json::Array(items) = body else { return invalid_type("an array", body).map_err(|e| e.at(".list")) };
        let items = self.items(items, self.enter(depth)?).map_err(|e| e.at(".list"))?;
        Ok(Value::List(Box::new(List { type_name, fixed_length, items })))
    }

    fn map(&self, m: &JsonMap<String, Json>, body: &Json, depth: usize) -> JResult<Value> {
        let type_name = Self::type_name(m)?;
        let depth = self.enter(depth)?;
        let entries = match body {
            Json::Object(o) => o
                .iter()
                .map(|(k, v)| Ok((Value::String(k.clone()), self.value(v, depth).map_err(|e| e.at(key_seg(k)))?)))
                .collect::<JResult<Vec<_>>>(),
            Json::Array(pairs) => pairs
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let pair = match p {
                        Json::Array(kv) if kv.len() == 2 => kv,
                        other => return invalid_type("a [key, value] pair", other).map_err(|e| e.at(format!("[{i}]"))),
                    };
                    let k = self.value(&pair[0], depth).map_err(|e| e.at(format!("[{i}][0]")))?;
                    let v = self.value(&pair[1], depth).map_err(|e| e.at(format!("[{i}][1]")))?;
                    Ok((k, v))
                })
                .collect(),
            other => invalid_type("an object or an array of [key, value] pairs", other),
        }
        .map_err(|e| e.at(".map"))?;
        Ok(Value::Map(Box::new(Map { type_name, entries })))
    }

    fn obj(&self, m: &JsonMap<String, Json>, body: &Json, depth: usize) -> JResult<Value> {
        let name = match body {
            Json::String(s) => s.clone(),
            other => return invalid_type("a class name string", other).map_err(|e| e.at(".object")),
        };
        let depth = self.enter(depth)?;
        let mut names = Vec::new();
        let mut values = Vec::new();
        match m.get("fields") {
            None => {}
            Some(Json::Object(o)) => {
                for (k, v) in o {
                    names.push(k.clone());
                    values.push(self.value(v, depth).map_err(|e| e.at(key_seg(k)).at(".fields"))?);
                }
            }
            Some(Json::Array(pairs)) => {
                for (i, p) in pairs.iter().enumerate() {
                    let at = |e: JsonError| e.at(format!("[{i}]")).at(".fields");
                    match p {
                        Json::Array(kv) if kv.len() == 2 => {
                            match &kv[0] {
                                Json::String(k) => names.push(k.clone()),
                                Json::Null => {}
                                other => return invalid_type("a field name string", other).map_err(at),
                            }
                            values.push(self.value(&kv[1], depth).map_err(at)?);
                        }
                        Json::Array(kv) if kv.len() == 1 => match &kv[0] {
                            Json::String(k) => names.push(k.clone()),
                            other => return invalid_type("a field name string", other).map_err(at),
                        },
                        other => return invalid_type("a [name, value] pair", other).map_err(at),
                    }
                }
            }
            Some(other) => {
                return invalid_type("an object or an array of [name, value] pairs", other).map_err(|e| e.at(".fields"))
            }
        }
        let class = Arc::new(ClassDef { name, fields: names });
        Ok(Value::Object(Box::new(Object { class, fields: values })))
    }
}

fn bare_number(n: &Number) -> JResult<Value> {
    if let Some(i) = n.as_i64() {
        return Ok(match i32::try_from(i) {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Long(i),
        });
    }
    if n.is_u64() {
        return err(JsonErrorKind::InvalidNumber { ty: "long", detail: format!("{n} is out of range") });
    }
    match n.as_f64() {
        Some(d) => Ok(Value::Double(d)),
        None => err(JsonErrorKind::InvalidNumber { ty: "double", detail: format!("{n} is not representable") }),
    }
}

fn integer_from_json(j: &Json, ty: &'static str) -> JResult<i64> {
    match j {
        Json::Number(n) => match n.as_i64() {
            Some(i) => Ok(i),
            None => err(JsonErrorKind::InvalidNumber { ty, detail: format!("{n} is not a 64-bit integer") }),
        },
        Json::String(s) => s.trim().parse::<i64>().map_err(|_| {
            JsonError::new(JsonErrorKind::InvalidNumber { ty, detail: format!("{s:?} is not an integer") })
        }),
        other => invalid_type("an integer (number or decimal string)", other),
    }
}

fn int_from_json(j: &Json) -> JResult<i32> {
    let i = integer_from_json(j, "int")?;
    i32::try_from(i).map_err(|_| {
        JsonError::new(JsonErrorKind::InvalidNumber { ty: "int", detail: format!("{i} does not fit 32 bits") })
    })
}

fn long_from_json(j: &Json, ty: &'static str) -> JResult<i64> {
    integer_from_json(j, ty)
}

fn ref_from_json(j: &Json) -> JResult<u32> {
    let i = integer_from_json(j, "ref")?;
    u32::try_from(i).map_err(|_| {
        JsonError::new(JsonErrorKind::InvalidNumber { ty: "ref", detail: format!("{i} is not in 0..=4294967295") })
    })
}

/// Reads the body of `{"double": …}`: a JSON number, `"NaN"`, `"Infinity"`, `"-Infinity"`, a
/// decimal string, or `"0x"` and 16 hex digits giving the IEEE 754 bit pattern.
pub fn double_from_json(j: &Json) -> Result<f64, JsonError> {
    let bad = |s: &str| JsonError::new(JsonErrorKind::InvalidNumber { ty: "double", detail: format!("{s:?}") });
    match j {
        Json::Number(n) => n.as_f64().ok_or_else(|| bad(&n.to_string())),
        Json::String(s) => {
            let t = s.trim();
            match t {
                "NaN" => Ok(f64::from_bits(CANONICAL_NAN_BITS)),
                "Infinity" | "+Infinity" => Ok(f64::INFINITY),
                "-Infinity" => Ok(f64::NEG_INFINITY),
                _ => {
                    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                        if hex.len() == 16 {
                            if let Ok(bits) = u64::from_str_radix(hex, 16) {
                                return Ok(f64::from_bits(bits));
                            }
                        }
                        return Err(bad(s));
                    }
                    // Rust also accepts "inf"/"nan" spellings; only decimal notation is allowed here.
                    if t.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) && !t.is_empty() {
                        t.parse::<f64>().map_err(|_| bad(s))
                    } else {
                        Err(bad(s))
                    }
                }
            }
        }
        other => invalid_type("a number or a string", other),
    }
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Formats milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SS[.mmm]Z`, or `None` when the year
/// is outside 0000..=9999.
pub fn format_date(ms: i64) -> Option<String> {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (y, m, d) = civil_from_days(days);
    if !(0..=9999).contains(&y) {
        return None;
    }
    let (h, mi, s, milli) = (rem / 3_600_000, rem / 60_000 % 60, rem / 1000 % 60, rem % 1000);
    Some(if milli == 0 {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
    } else {
        format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
    })
}

fn date_to_json(ms: i64) -> Json {
    match format_date(ms) {
        Some(s) => Json::String(s),
        None => exact_integer(ms),
    }
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.f…](Z|±HH:MM)` into milliseconds since the epoch. Fractions
/// beyond milliseconds must be zero (a Hessian date has millisecond precision).
pub fn parse_date(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = b.get(r)?;
        if part.iter().all(u8::is_ascii_digit) {
            std::str::from_utf8(part).ok()?.parse().ok()
        } else {
            None
        }
    };
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't' | b' ')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let (y, mo, d, h, mi, sec) = (num(0..4)?, num(5..7)?, num(8..10)?, num(11..13)?, num(14..16)?, num(17..19)?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let mdays = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&mo) || d < 1 || d > mdays[(mo - 1) as usize] || h > 23 || mi > 59 || sec > 59 {
        return None;
    }
    let mut i = 19;
    let mut millis = 0i64;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            let digit = i64::from(b[i] - b'0');
            match i - start {
                0 => millis += digit * 100,
                1 => millis += digit * 10,
                2 => millis += digit,
                _ if digit != 0 => return None,
                _ => {}
            }
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    let offset_min = match &b[i..] {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (oh, om) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 60 + om;
            if *sign == b'-' {
                -o
            } else {
                o
            }
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo, d);
    Some(((days * 24 + h) * 60 + mi - offset_min) * 60_000 + sec * 1000 + millis)
}

fn date_from_json(j: &Json) -> JResult<i64> {
    match j {
        Json::String(s) => {
            let t = s.trim();
            let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
            let parsed = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                t.parse::<i64>().ok()
            } else {
                parse_date(t)
            };
            parsed.ok_or_else(|| JsonError::new(JsonErrorKind::InvalidDate(s.clone())))
        }
        Json::Number(_) => long_from_json(j, "date"),
        other => invalid_type("a date string or milliseconds", other),
    }
}

// ---------------------------------------------------------------------------------------------
// Base64 (RFC 4648, standard alphabet)
// ---------------------------------------------------------------------------------------------

/// Encodes bytes as standard base64 with padding ([`crate::base64::encode`]).
pub fn base64_encode(data: &[u8]) -> String {
    crate::base64::encode(data)
}

/// Decodes standard base64; padding is optional and ASCII whitespace is ignored.
pub fn base64_decode(s: &str) -> Result<Vec<u8>, JsonError> {
    crate::base64::decode(s.as_bytes(), crate::base64::Strictness::Canonical)
        .map_err(|e| JsonError::new(JsonErrorKind::InvalidBase64(e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(v: &Value) {
        let j = to_json(v);
        // Through text too: what the CLI prints must read back identically.
        let text = serde_json::to_string(&j).unwrap();
        let j2: Json = serde_json::from_str(&text).unwrap();
        let back = from_json(&j2).unwrap_or_else(|e| panic!("{v:?} -> {text}: {e}"));
        assert!(v.same(&back), "{v:?} -> {text} -> {back:?}");
    }

    fn sample_values() -> Vec<Value> {
        let mut vs =
            vec![Value::Null, Value::Bool(true), Value::Bool(false), Value::string(""), Value::string("héllo 😀")];
        for i in [0, 1, -1, -16, 47, 48, -2048, 2047, -262144, 262143, i32::MIN, i32::MAX] {
            vs.push(Value::Int(i));
        }
        for l in [0, -8, 15, 2047, i64::from(i32::MAX) + 1, MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1, i64::MIN, i64::MAX]
        {
            vs.push(Value::Long(l));
            vs.push(Value::Long(l.wrapping_neg()));
            vs.push(Value::Date(l));
        }
        for d in [
            0.0,
            -0.0,
            1.0,
            -1.5,
            0.1,
            1e300,
            -1e-300,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::from_bits(0xfff8_0000_0000_0000),
        ] {
            vs.push(Value::Double(d));
        }
        for n in [0usize, 1, 2, 3, 4, 255, 1000] {
            vs.push(Value::Binary((0..n).map(|i| (i * 7) as u8).collect()));
        }
        vs.push(Value::Ref(0));
        vs.push(Value::Ref(u32::MAX));
        vs.push(Value::Remote(Box::new(Remote { type_name: "com.Foo".into(), url: "http://x/y".into() })));
        vs.push(Value::list(vec![]));
        vs.push(Value::list(vec![Value::Int(1), Value::list(vec![Value::Null])]));
        vs.push(Value::typed_list("[int", vec![Value::Int(1), Value::Int(2)]));
        vs.push(Value::List(Box::new(List { type_name: None, fixed_length: false, items: vec![Value::Int(1)] })));
        vs.push(Value::List(Box::new(List { type_name: Some("[string".into()), fixed_length: false, items: vec![] })));
        vs.push(Value::map(vec![]));
        vs.push(Value::map(vec![(Value::string("a"), Value::Int(1)), (Value::string("b"), Value::Null)]));
        vs.push(Value::map(vec![(Value::string("int"), Value::Int(1))]));
        vs.push(Value::map(vec![(Value::string("a"), Value::Int(1)), (Value::string("a"), Value::Int(2))]));
        vs.push(Value::map(vec![(Value::Int(1), Value::string("one")), (Value::Null, Value::Bool(true))]));
        vs.push(Value::typed_map("java.util.Hashtable", vec![(Value::string("k"), Value::string("v"))]));
        vs.push(Value::typed_map("java.util.Hashtable", vec![(Value::Long(1), Value::Double(f64::NAN))]));
        let class = ClassDef::new("com.example.Money", ["cents", "currency"]);
        vs.push(Value::object(class.clone(), vec![Value::Int(100), Value::string("EUR")]));
        vs.push(Value::object(ClassDef::new("Dup", ["a", "a"]), vec![Value::Int(1), Value::Int(2)]));
        vs.push(Value::object(ClassDef::new("Empty", Vec::<String>::new()), vec![]));
        vs.push(Value::object(ClassDef::new("Short", ["a", "b"]), vec![Value::Int(1)]));
        vs.push(Value::object(ClassDef::new("Long", ["a"]), vec![Value::Int(1), Value::Int(2)]));
        vs.push(Value::list(vec![Value::object(class.clone(), vec![Value::Int(1), Value::Null]), Value::Ref(1)]));
        vs
    }

    #[test]
    fn round_trips_many_values() {
        let vs = sample_values();
        for v in &vs {
            round_trip(v);
        }
        // All of them nested in one list, a typed map and an object.
        round_trip(&Value::list(vs.clone()));
        round_trip(&Value::typed_map("M", vs.iter().cloned().zip(vs.iter().cloned()).collect()));
        let class = ClassDef::new("Holder", (0..vs.len()).map(|i| format!("f{i}")));
        round_trip(&Value::object(class, vs));
    }

    #[test]
    fn doubles_survive_json_text_bit_for_bit() {
        // Needs serde_json's correctly rounded parser (feature `float_roundtrip`).
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            round_trip(&Value::Double(f64::from_bits(x)));
        }
        for i in 0..1000 {
            round_trip(&Value::Double(f64::from((i % 100) as f32 / 7.0f32)));
            round_trip(&Value::Double(i as f64 * 1.25 + 0.1));
        }
    }

    /// A small deterministic generator of arbitrary values (xorshift).
    struct Gen(u64);

    impl Gen {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        fn string(&mut self) -> String {
            let pool = ['a', 'Z', '0', ' ', '"', '\\', '\n', '\u{0}', 'é', '€', '😀', '𝄞', '\u{ffff}'];
            (0..self.below(12)).map(|_| pool[self.below(pool.len() as u64) as usize]).collect()
        }

        fn value(&mut self, depth: usize) -> Value {
            let kinds = if depth == 0 { 9 } else { 13 };
            match self.below(kinds) {
                0 => Value::Null,
                1 => Value::Bool(self.below(2) == 0),
                2 => Value::Int(self.next() as i32 >> self.below(32)),
                3 => Value::Long(self.next() as i64 >> self.below(64)),
                4 => Value::Double(match self.below(3) {
                    0 => f64::from_bits(self.next()),
                    1 => (self.next() as i32) as f64 / 1000.0,
                    _ => (self.next() as i16) as f64,
                }),
                5 => Value::Date(self.next() as i64 >> self.below(64)),
                6 => Value::String(self.string()),
                7 => Value::Binary((0..self.below(40)).map(|_| self.next() as u8).collect()),
                8 => Value::Ref(0),
                9 => {
                    let items = (0..self.below(5)).map(|_| self.value(depth - 1)).collect();
                    let type_name = (self.below(2) == 0).then(|| format!("[t{}", self.below(3)));
                    Value::List(Box::new(List { type_name, fixed_length: self.below(3) != 0, items }))
                }
                10 => {
                    let entries = (0..self.below(4))
                        .map(|_| {
                            let k = if self.below(2) == 0 { Value::String(self.string()) } else { self.value(0) };
                            (k, self.value(depth - 1))
                        })
                        .collect();
                    let type_name = (self.below(3) == 0).then(|| "java.util.Hashtable".to_string());
                    Value::Map(Box::new(Map { type_name, entries }))
                }
                _ => {
                    let n = self.below(4) as usize;
                    let fields: Vec<String> = (0..n).map(|i| format!("f{}", i + self.below(2) as usize)).collect();
                    let class = ClassDef::new(format!("C{}", self.below(20)), fields);
                    Value::object(class, (0..n).map(|_| self.value(depth - 1)).collect())
                }
            }
        }
    }

    #[test]
    fn arbitrary_values_round_trip_through_json_and_hessian() {
        let mut g = Gen(0x1234_5678_9abc_def1);
        for _ in 0..3000 {
            // A list at the root, so that Ref(0) always points at something.
            let v = Value::list((0..g.below(4)).map(|_| g.value(4)).collect());
            round_trip(&v);
            let bytes = crate::h2::to_vec(&v).unwrap();
            let decoded = crate::h2::from_slice(&bytes).unwrap();
            let text = serde_json::to_string(&to_json(&decoded)).unwrap();
            let back = from_json(&serde_json::from_str(&text).unwrap()).unwrap();
            assert_eq!(crate::h2::to_vec(&back).unwrap(), bytes, "{text}");
        }
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(to_json(&Value::Int(5)), json!({"int": 5}));
        assert_eq!(to_json(&Value::Long(10_000_000_000)), json!({"long": 10_000_000_000i64}));
        assert_eq!(to_json(&Value::Long(i64::MAX)), json!({"long": "9223372036854775807"}));
        assert_eq!(to_json(&Value::Double(f64::NAN)), json!({"double": "NaN"}));
        assert_eq!(to_json(&Value::Double(f64::NEG_INFINITY)), json!({"double": "-Infinity"}));
        assert_eq!(to_json(&Value::Date(1_200_000_000_000)), json!({"date": "2008-01-10T21:20:00Z"}));
        assert_eq!(to_json(&Value::Date(1_200_000_000_123)), json!({"date": "2008-01-10T21:20:00.123Z"}));
        assert_eq!(to_json(&Value::Date(-1)), json!({"date": "1969-12-31T23:59:59.999Z"}));
        assert_eq!(to_json(&Value::Binary(b"hello".to_vec())), json!({"binary": "aGVsbG8="}));
        assert_eq!(to_json(&Value::list(vec![Value::Null])), json!([null]));
        assert_eq!(to_json(&Value::typed_list("[int", vec![])), json!({"list": [], "type": "[int"}));
        assert_eq!(to_json(&Value::map(vec![(Value::string("a"), Value::Bool(true))])), json!({"a": true}));
        assert_eq!(
            to_json(&Value::map(vec![(Value::string("list"), Value::Bool(true))])),
            json!({"map": {"list": true}})
        );
        assert_eq!(
            to_json(&Value::map(vec![(Value::Int(1), Value::Bool(true))])),
            json!({"map": [[{"int": 1}, true]]})
        );
        let o = Value::object(ClassDef::new("Money", ["cents", "text"]), vec![Value::Int(1), Value::string("x")]);
        assert_eq!(to_json(&o), json!({"object": "Money", "fields": {"cents": {"int": 1}, "text": "x"}}));
        // Field order is kept (serde_json's preserve_order).
        let o = Value::object(ClassDef::new("Z", ["z", "a"]), vec![Value::Null, Value::Null]);
        assert_eq!(serde_json::to_string(&to_json(&o)).unwrap(), r#"{"object":"Z","fields":{"z":null,"a":null}}"#);
    }

    #[test]
    fn plain_json_and_alternative_spellings() {
        let p = |s: &str| from_json(&serde_json::from_str(s).unwrap());
        assert_eq!(p("5").unwrap(), Value::Int(5));
        assert_eq!(p("2147483648").unwrap(), Value::Long(2_147_483_648));
        assert_eq!(p("-2147483648").unwrap(), Value::Int(i32::MIN));
        assert_eq!(p("1.5").unwrap(), Value::Double(1.5));
        assert_eq!(p("1e2").unwrap(), Value::Double(100.0));
        assert!(p("18446744073709551615").is_err());
        assert_eq!(p(r#"{"long": "12"}"#).unwrap(), Value::Long(12));
        assert_eq!(p(r#"{"int": "-7"}"#).unwrap(), Value::Int(-7));
        assert_eq!(p(r#"{"double": 2}"#).unwrap(), Value::Double(2.0));
        assert_eq!(p(r#"{"double": "0x3ff0000000000000"}"#).unwrap(), Value::Double(1.0));
        assert_eq!(p(r#"{"date": 1200000000000}"#).unwrap(), Value::Date(1_200_000_000_000));
        assert_eq!(p(r#"{"date": "1200000000000"}"#).unwrap(), Value::Date(1_200_000_000_000));
        assert_eq!(p(r#"{"date": "2008-01-10T22:20:00+01:00"}"#).unwrap(), Value::Date(1_200_000_000_000));
        assert_eq!(p(r#"{"date": "2008-01-10T21:20:00.123000Z"}"#).unwrap(), Value::Date(1_200_000_000_123));
        assert_eq!(p(r#"{"string": "x"}"#).unwrap(), Value::string("x"));
        assert_eq!(p(r#"{"binary": "aGVs bG8"}"#).unwrap(), Value::Binary(b"hello".to_vec()));
        assert_eq!(p(r#"{"list": [1], "type": null}"#).unwrap(), Value::list(vec![Value::Int(1)]));
        assert_eq!(p(r#"{"map": [["a", 1]]}"#).unwrap(), Value::map(vec![(Value::string("a"), Value::Int(1))]));
        assert_eq!(
            p(r#"{"object": "P", "fields": [["x", 1], ["y", 2]]}"#).unwrap(),
            Value::object(ClassDef::new("P", ["x", "y"]), vec![Value::Int(1), Value::Int(2)])
        );
        assert_eq!(p(r#"{"type": "x", "fixed": 1}"#).unwrap().kind_name(), "map");
    }

    #[test]
    fn errors_are_typed_and_located() {
        let p = |s: &str| from_json(&serde_json::from_str(s).unwrap()).unwrap_err();
        let e = p(r#"{"int": 1, "long": 2}"#);
        assert!(matches!(e.kind(), JsonErrorKind::ConflictingTags(..)), "{e}");
        let e = p(r#"{"int": 2147483648}"#);
        assert!(matches!(e.kind(), JsonErrorKind::InvalidNumber { ty: "int", .. }), "{e}");
        assert_eq!(e.path(), "$.int");
        let e = p(r#"{"a": [1, {"list": 5}]}"#);
        assert_eq!(e.path(), "$.a[1].list");
        let e = p(r#"{"object": "X", "fields": {"f": {"date": "yesterday"}}}"#);
        assert!(matches!(e.kind(), JsonErrorKind::InvalidDate(_)), "{e}");
        assert_eq!(e.path(), "$.fields.f.date");
        assert!(matches!(p(r#"{"list": [], "size": 3}"#).kind(), JsonErrorKind::UnexpectedKey { .. }));
        assert!(matches!(p(r#"{"remote": "u"}"#).kind(), JsonErrorKind::MissingKey { .. }));
        assert!(matches!(p(r#"{"binary": "a"}"#).kind(), JsonErrorKind::InvalidBase64(_)));
        assert!(matches!(p(r#"{"binary": "aGVsbG8=x"}"#).kind(), JsonErrorKind::InvalidBase64(_)));
        assert!(matches!(p(r#"{"double": "inf"}"#).kind(), JsonErrorKind::InvalidNumber { .. }));
        assert!(matches!(p(r#"{"ref": -1}"#).kind(), JsonErrorKind::InvalidNumber { .. }));
        assert!(matches!(p(r#"[{"reply": 1}]"#).kind(), JsonErrorKind::DocumentTagInValue("reply")));
        assert!(matches!(p(r#"{"date": "2008-02-30T00:00:00Z"}"#).kind(), JsonErrorKind::InvalidDate(_)));
        assert!(matches!(p(r#"{"date": "2008-01-10T21:20:00.0001Z"}"#).kind(), JsonErrorKind::InvalidDate(_)));
        assert!(matches!(p(r#"{"map": [[1]]}"#).kind(), JsonErrorKind::InvalidType { .. }));
        let e = p(r#"{"int": 1.5}"#);
        assert!(e.to_string().contains("int"), "{e}");
    }

    #[test]
    fn depth_is_bounded() {
        let mut j = json!(null);
        for _ in 0..10 {
            j = json!([j]);
        }
        assert!(from_json_with_max_depth(&j, 10).is_ok());
        assert!(matches!(from_json_with_max_depth(&j, 9).unwrap_err().kind(), JsonErrorKind::TooDeep(9)));
    }

    #[test]
    fn dates_agree_with_the_calendar() {
        for ms in [0i64, 1, -1, 951_782_400_000, 253_402_300_799_999, -62_167_219_200_000, 1_200_000_000_000] {
            let s = format_date(ms).unwrap();
            assert_eq!(parse_date(&s), Some(ms), "{s}");
        }
        assert_eq!(format_date(951_782_400_000).unwrap(), "2000-02-29T00:00:00Z");
        assert_eq!(format_date(-62_167_219_200_000).unwrap(), "0000-01-01T00:00:00Z");
        assert_eq!(format_date(253_402_300_800_000), None);
        // Every day over a few centuries.
        for day in (-200_000i64..200_000).step_by(7) {
            let ms = day * 86_400_000 + 3_723_004;
            assert_eq!(parse_date(&format_date(ms).unwrap()), Some(ms));
        }
    }

    #[test]
    fn base64_matches_rfc4648() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(raw.as_bytes()), enc);
            assert_eq!(base64_decode(enc).unwrap(), raw.as_bytes());
            assert_eq!(base64_decode(enc.trim_end_matches('=')).unwrap(), raw.as_bytes());
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(base64_decode(&base64_encode(&all)).unwrap(), all);
        assert!(base64_decode("Zh==").is_err(), "non-zero trailing bits");
    }
}
