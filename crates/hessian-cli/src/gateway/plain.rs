//! `hessian gateway --api`: the service's Java interface read from its class files, the method
//! a request names (with Caucho's overload mangling), and plain JSON arguments converted by the
//! Java parameter types (`docs/gateway.md`, "Plain JSON").

use super::GatewayError;
use hessian::json::json_type_name;
use hessian::value::{ClassDef, List, Map, Object};
use hessian::Value;
use hessian_codegen::classfile::{ACC_ABSTRACT, ACC_ENUM, ACC_INTERFACE};
use hessian_codegen::jtype::{primitive_name, JType};
use hessian_codegen::{ApiMethod, Classes};
use serde_json::Value as Json;
use std::path::PathBuf;

/// Deepest nesting of lists, maps and objects a plain argument may have (the codec's default).
const MAX_DEPTH: usize = 256;

/// The service interface of `--api`/`--service`.
pub(crate) struct Api {
    /// The interface's binary name.
    service: String,
    classes: Classes,
    methods: Vec<ApiMethod>,
}

/// A method a request resolved to: the name to send and the converted arguments.
pub(crate) struct Resolved {
    /// The name on the wire: the Java name, or the mangled one for an overloaded method.
    pub wire_name: String,
    /// The arguments as Hessian values.
    pub args: Vec<Value>,
}

impl Api {
    /// Reads the class files, directories and jars of `inputs` and the interface `service`.
    pub(crate) fn load(inputs: &[PathBuf], service: &str) -> Result<Api, hessian_codegen::Error> {
        let mut classes = Classes::default();
        for i in inputs {
            classes.add_path(i)?;
        }
        let methods = hessian_codegen::service_methods(&classes, service)?;
        Ok(Api { service: service.to_owned(), classes, methods })
    }

    /// The interface's binary name.
    pub(crate) fn service(&self) -> &str {
        &self.service
    }

    /// Whether more than one method has this Java name.
    fn overloaded(&self, name: &str) -> bool {
        self.methods.iter().filter(|m| m.name == name).count() > 1
    }

    /// The name a method is called by: its Java name, or for an overloaded one the mangled
    /// name Caucho's skeleton knows it by (`add_int_int`).
    fn wire_name(&self, m: &ApiMethod) -> String {
        if self.overloaded(&m.name) {
            m.mangled_name()
        } else {
            m.name.clone()
        }
    }

    /// `GET /`'s methods: name, path, Java signature, parameters, return type, exceptions.
    pub(crate) fn listing(&self) -> Vec<Json> {
        self.methods
            .iter()
            .map(|m| {
                let params: Vec<Json> = m
                    .params
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let mut o = serde_json::Map::new();
                        if let Some(n) = m.param_names.get(i).cloned().flatten() {
                            o.insert("name".into(), n.into());
                        }
                        o.insert("type".into(), hessian_codegen::java_source_type(p).into());
                        Json::Object(o)
                    })
                    .collect();
                serde_json::json!({
                    "name": m.name,
                    "path": format!("/{}", self.wire_name(m)),
                    "signature": m.java_signature(),
                    "parameters": params,
                    "returns": hessian_codegen::java_source_type(&m.returns),
                    "throws": m.exceptions,
                })
            })
            .collect()
    }

    /// The method `name` (a Java name, a mangled name `add_int_int`, or `add__2`) called with
    /// `args`, and the arguments converted by its parameter types. An overloaded Java name is
    /// resolved by the number of arguments, then by which overload the arguments fit.
    pub(crate) fn resolve(&self, name: &str, args: &[Json]) -> Result<Resolved, GatewayError> {
        let mut candidates: Vec<&ApiMethod> = self.methods.iter().filter(|m| m.name == name).collect();
        if candidates.is_empty() {
            candidates = self.methods.iter().filter(|m| m.mangled_name() == name).collect();
        }
        if candidates.is_empty() {
            if let Some((base, n)) = name.rsplit_once("__").and_then(|(b, n)| Some((b, n.parse::<usize>().ok()?))) {
                candidates = self.methods.iter().filter(|m| m.name == base && m.params.len() == n).collect();
            }
        }
        if candidates.is_empty() {
            return Err(GatewayError::UnknownMethod(format!(
                "{} has no method {name:?} (GET / lists them)",
                self.service
            )));
        }
        let signatures = |ms: &[&ApiMethod]| ms.iter().map(|m| m.java_signature()).collect::<Vec<_>>().join("; ");
        let by_count: Vec<&ApiMethod> = candidates.iter().copied().filter(|m| m.params.len() == args.len()).collect();
        if by_count.is_empty() {
            return Err(GatewayError::ArgumentCount(format!(
                "{name} takes {} but was given {} argument{}",
                signatures(&candidates),
                args.len(),
                if args.len() == 1 { "" } else { "s" }
            )));
        }
        let mut fits = Vec::new();
        let mut misfits = Vec::new();
        for m in &by_count {
            match self.convert_args(m, args) {
                Ok(values) => fits.push((*m, values)),
                Err(e) => misfits.push((*m, e)),
            }
        }
        match (fits.len(), misfits.len()) {
            (1, _) => {
                let (m, args) = fits.swap_remove(0);
                Ok(Resolved { wire_name: self.wire_name(m), args })
            }
            (0, 1) => Err(misfits.swap_remove(0).1),
            (0, _) => {
                let why: Vec<String> = misfits.iter().map(|(m, e)| format!("{}: {e}", m.java_signature())).collect();
                Err(GatewayError::NoOverloadFits(format!(
                    "the arguments fit no overload of {name}: {}",
                    why.join("; ")
                )))
            }
            _ => {
                let paths: Vec<String> = fits.iter().map(|(m, _)| format!("/{}", m.mangled_name())).collect();
                Err(GatewayError::Ambiguous(format!(
                    "the arguments fit several overloads of {name}: call one by its path, {}",
                    paths.join(" or ")
                )))
            }
        }
    }

    /// `args` converted by the parameter types of `m`.
    fn convert_args(&self, m: &ApiMethod, args: &[Json]) -> Result<Vec<Value>, GatewayError> {
        let mut out = Vec::with_capacity(args.len());
        for (i, (t, j)) in m.params.iter().zip(args).enumerate() {
            let v = self.convert(t, j, 0).map_err(|message| {
                let param = match m.param_names.get(i).cloned().flatten() {
                    Some(n) => format!("{} {n}", hessian_codegen::java_source_type(t)),
                    None => hessian_codegen::java_source_type(t),
                };
                GatewayError::BadArgument { index: i + 1, message: format!("({param}) {message}") }
            })?;
            out.push(v);
        }
        Ok(out)
    }

    /// The plain JSON `j` as a Hessian value of the Java type `t`; the error says what does not
    /// fit, with the path into the argument (`.items[2].price: …`).
    fn convert(&self, t: &JType, j: &Json, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        if let JType::Primitive(p) = t {
            return primitive(*p, j);
        }
        if j.is_null() {
            return Ok(Value::Null);
        }
        match t {
            JType::Primitive(_) | JType::Variable(_) => typed(j),
            JType::Array(inner) => match **inner {
                JType::Primitive('B') => wrapped("binary", j, "a base64 string"),
                JType::Primitive('C') => string(j),
                _ => {
                    let items = self.items(inner, j, depth)?;
                    Ok(list(Some(format!("[{}", array_type(inner))), items))
                }
            },
            JType::Class(name, args) => {
                if let Some(p) = boxed(name) {
                    return primitive(p, j);
                }
                match name.as_str() {
                    "java.lang.String" => string(j),
                    "java.lang.Object" | "java.io.Serializable" | "java.lang.Number" => typed(j),
                    "java.util.Date" | "java.sql.Date" | "java.sql.Timestamp" => {
                        wrapped("date", j, "an ISO 8601 date-time string or milliseconds since 1970")
                    }
                    n if collection(n).is_some() => {
                        let element = args.first().cloned().unwrap_or_else(object);
                        let items = self.items(&element, j, depth)?;
                        Ok(list(collection(n).flatten().map(str::to_owned), items))
                    }
                    n if map(n).is_some() => self.map(map(n).flatten(), args, j, depth),
                    n => match self.classes.get(n) {
                        Some(c) if c.flags & ACC_ENUM != 0 && c.superclass.as_deref() == Some("java.lang.Enum") => {
                            let Json::String(s) = j else {
                                return Err(format!(
                                    "expected one of {n}'s constants (a string), got {}",
                                    json_type_name(j)
                                ));
                            };
                            if !c.fields.iter().any(|f| f.flags & ACC_ENUM != 0 && f.name == *s) {
                                return Err(format!("{s:?} is not a constant of the enum {n}"));
                            }
                            let class = ClassDef::new(n.to_owned(), ["name"]);
                            Ok(Value::Object(Box::new(Object { class, fields: vec![Value::String(s.clone())] })))
                        }
                        Some(c) if c.flags & (ACC_INTERFACE | ACC_ABSTRACT) == 0 => self.object(n, j, depth),
                        // an interface, an abstract class or a class not read: typed JSON says
                        // which class the value is
                        _ => typed(j),
                    },
                }
            }
        }
    }

    /// A JSON array's items as values of the element type `element`.
    fn items(&self, element: &JType, j: &Json, depth: usize) -> Result<Vec<Value>, String> {
        let Json::Array(items) = j else {
            return Err(format!("expected an array, got {}", json_type_name(j)));
        };
        items
            .iter()
            .enumerate()
            .map(|(i, x)| self.convert(element, x, depth + 1).map_err(|e| format!("[{i}]{}", at(&e))))
            .collect()
    }

    /// A JSON object as a map with `args`' key and value types (keys from their JSON text).
    fn map(&self, type_name: Option<&str>, args: &[JType], j: &Json, depth: usize) -> Result<Value, String> {
        let Json::Object(o) = j else {
            return Err(format!("expected an object (a map), got {}", json_type_name(j)));
        };
        let key_type = args.first().cloned().unwrap_or_else(string_type);
        let value_type = args.get(1).cloned().unwrap_or_else(object);
        let mut entries = Vec::with_capacity(o.len());
        for (k, v) in o {
            let key = self.map_key(&key_type, k).map_err(|e| format!("key {k:?}: {e}"))?;
            let value = self.convert(&value_type, v, depth + 1).map_err(|e| format!(".{k}{}", at(&e)))?;
            entries.push((key, value));
        }
        Ok(Value::Map(Box::new(Map { type_name: type_name.map(str::to_owned), entries })))
    }

    /// A map key of type `t` from an object key's text: numbers and booleans parse, strings
    /// and enum constants stay text.
    fn map_key(&self, t: &JType, k: &str) -> Result<Value, String> {
        let numeric = matches!(t, JType::Primitive('B' | 'S' | 'I' | 'J' | 'F' | 'D' | 'Z'))
            || matches!(t, JType::Class(n, _) if boxed(n).is_some_and(|p| p != 'C'));
        if numeric {
            let parsed: Json = serde_json::from_str(k).map_err(|_| format!("not a number or boolean: {k:?}"))?;
            return self.convert(t, &parsed, 0);
        }
        self.convert(t, &Json::String(k.to_owned()), 0)
    }

    /// A JSON object as an object of the class `class`, its fields in Caucho's order; a field
    /// left out is Java's default (null, 0, false), a key that is no field is an error.
    fn object(&self, class: &str, j: &Json, depth: usize) -> Result<Value, String> {
        let Json::Object(o) = j else {
            return Err(format!("expected an object of {class}, got {}", json_type_name(j)));
        };
        let fields = hessian_codegen::serialized_fields(&self.classes, class).map_err(|e| e.to_string())?;
        if let Some(unknown) = o.keys().find(|k| !fields.iter().any(|(f, _)| f == *k)) {
            let names: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
            return Err(format!("{class} has no field {unknown:?} (its fields: {})", names.join(", ")));
        }
        let mut values = Vec::with_capacity(fields.len());
        for (name, t) in &fields {
            let v = match o.get(name) {
                Some(v) => self.convert(t, v, depth + 1).map_err(|e| format!(".{name}{}", at(&e)))?,
                None => default(t),
            };
            values.push(v);
        }
        let class = ClassDef::new(class.to_owned(), fields.into_iter().map(|(f, _)| f));
        Ok(Value::Object(Box::new(Object { class, fields: values })))
    }
}

/// `: message`, or the nested path as is (`.x: …`, `[2]: …`).
fn at(e: &str) -> String {
    if e.starts_with(['.', '[']) {
        e.to_owned()
    } else {
        format!(": {e}")
    }
}

fn object() -> JType {
    JType::Class("java.lang.Object".into(), Vec::new())
}

fn string_type() -> JType {
    JType::Class("java.lang.String".into(), Vec::new())
}

/// A boxed primitive's descriptor letter.
fn boxed(name: &str) -> Option<char> {
    Some(match name {
        "java.lang.Boolean" => 'Z',
        "java.lang.Byte" => 'B',
        "java.lang.Short" => 'S',
        "java.lang.Integer" => 'I',
        "java.lang.Long" => 'J',
        "java.lang.Float" => 'F',
        "java.lang.Double" => 'D',
        "java.lang.Character" => 'C',
        _ => return None,
    })
}

/// A collection class: `Some(type name)` the list is sent with (`None`: untyped, which Caucho
/// reads as the parameter's type asks, and how it writes an `ArrayList`).
fn collection(name: &str) -> Option<Option<&str>> {
    match name {
        "java.util.List"
        | "java.util.ArrayList"
        | "java.util.Collection"
        | "java.util.Set"
        | "java.util.SortedSet"
        | "java.util.NavigableSet"
        | "java.lang.Iterable" => Some(None),
        "java.util.LinkedList"
        | "java.util.HashSet"
        | "java.util.TreeSet"
        | "java.util.LinkedHashSet"
        | "java.util.Vector" => Some(Some(name)),
        _ => None,
    }
}

/// A map class: `Some(type name)` the map is sent with (`None`: untyped, as Caucho writes a
/// `HashMap`).
fn map(name: &str) -> Option<Option<&str>> {
    match name {
        "java.util.Map" | "java.util.HashMap" | "java.util.SortedMap" | "java.util.NavigableMap" => Some(None),
        "java.util.TreeMap"
        | "java.util.LinkedHashMap"
        | "java.util.Hashtable"
        | "java.util.concurrent.ConcurrentHashMap"
        | "java.util.concurrent.ConcurrentSkipListMap" => Some(Some(name)),
        _ => None,
    }
}

/// The element type of an array type name as Caucho writes it (`[int`, `[string`, `[object`,
/// `[com.example.Item`, `[[int`).
fn array_type(element: &JType) -> String {
    match element {
        JType::Primitive(p) => primitive_name(*p).to_owned(),
        JType::Array(inner) => format!("[{}", array_type(inner)),
        JType::Class(n, _) => match n.as_str() {
            "java.lang.String" => "string".to_owned(),
            "java.lang.Object" => "object".to_owned(),
            "java.util.Date" => "date".to_owned(),
            n => n.to_owned(),
        },
        JType::Variable(_) => "object".to_owned(),
    }
}

/// A fixed-length list with the type name `type_name`, as Java writes collections and arrays.
fn list(type_name: Option<String>, items: Vec<Value>) -> Value {
    Value::List(Box::new(List { type_name, fixed_length: true, items }))
}

/// Java's default value of a field of type `t` that the JSON object leaves out.
fn default(t: &JType) -> Value {
    match t {
        JType::Primitive('Z') => Value::Bool(false),
        JType::Primitive('J') => Value::Long(0),
        JType::Primitive('F' | 'D') => Value::Double(0.0),
        JType::Primitive('C') => Value::String("\0".into()),
        JType::Primitive(_) => Value::Int(0),
        _ => Value::Null,
    }
}

/// A value of a primitive (or boxed primitive) type, by its descriptor letter.
fn primitive(p: char, j: &Json) -> Result<Value, String> {
    let java = primitive_name(p);
    let integer = |min: i64, max: i64| match j.as_i64() {
        Some(i) if (min..=max).contains(&i) => Ok(i),
        Some(i) => Err(format!("{i} is out of range for {java}")),
        None if j.is_number() => Err(format!("{j} is not an integer, as {java} needs")),
        None => Err(format!("expected an integer for {java}, got {}", json_type_name(j))),
    };
    match p {
        _ if j.is_null() => Err(format!("null is not a {java}")),
        'Z' => j
            .as_bool()
            .map(Value::Bool)
            .ok_or_else(|| format!("expected true or false for boolean, got {}", json_type_name(j))),
        'B' => integer(i8::MIN.into(), i8::MAX.into()).map(|i| Value::Int(i as i32)),
        'S' => integer(i16::MIN.into(), i16::MAX.into()).map(|i| Value::Int(i as i32)),
        'I' => integer(i32::MIN.into(), i32::MAX.into()).map(|i| Value::Int(i as i32)),
        'J' => integer(i64::MIN, i64::MAX).map(Value::Long),
        'F' | 'D' => j
            .as_f64()
            .map(Value::Double)
            .ok_or_else(|| format!("expected a number for {java}, got {}", json_type_name(j))),
        'C' => match j {
            Json::String(s) if s.encode_utf16().count() == 1 => Ok(Value::String(s.clone())),
            Json::String(s) => Err(format!("{s:?} is not one character, as char needs")),
            _ => Err(format!("expected a one-character string for char, got {}", json_type_name(j))),
        },
        _ => Err(format!("no value has the type {java}")),
    }
}

/// A JSON string as a Hessian string.
fn string(j: &Json) -> Result<Value, String> {
    match j {
        Json::String(s) => Ok(Value::String(s.clone())),
        _ => Err(format!("expected a string, got {}", json_type_name(j))),
    }
}

/// A value whose JSON is what typed JSON puts in `{"<tag>": …}` (a date, base64 binary).
fn wrapped(tag: &str, j: &Json, expected: &str) -> Result<Value, String> {
    let mut o = serde_json::Map::new();
    o.insert(tag.to_owned(), j.clone());
    hessian::json::from_json(&Json::Object(o)).map_err(|e| format!("expected {expected}: {e}"))
}

/// A value of a type with no plain form (`Object`, an interface): typed JSON.
fn typed(j: &Json) -> Result<Value, String> {
    hessian::json::from_json(j).map_err(|e| format!("not valid typed JSON (this type takes typed JSON): {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api() -> Api {
        Api { service: "S".into(), classes: Classes::default(), methods: Vec::new() }
    }

    fn class(n: &str, args: Vec<JType>) -> JType {
        JType::Class(n.into(), args)
    }

    #[test]
    fn numbers_take_the_parameter_type() {
        let a = api();
        let j = serde_json::json!(7);
        assert_eq!(a.convert(&JType::Primitive('I'), &j, 0), Ok(Value::Int(7)));
        assert_eq!(a.convert(&JType::Primitive('J'), &j, 0), Ok(Value::Long(7)));
        assert_eq!(a.convert(&JType::Primitive('D'), &j, 0), Ok(Value::Double(7.0)));
        assert_eq!(a.convert(&class("java.lang.Long", vec![]), &j, 0), Ok(Value::Long(7)));
        assert_eq!(a.convert(&class("java.lang.Integer", vec![]), &Json::Null, 0), Ok(Value::Null));
        assert!(a.convert(&JType::Primitive('I'), &Json::Null, 0).unwrap_err().contains("null is not a int"));
        assert!(a.convert(&JType::Primitive('B'), &serde_json::json!(300), 0).unwrap_err().contains("out of range"));
        assert!(a.convert(&JType::Primitive('I'), &serde_json::json!(1.5), 0).unwrap_err().contains("not an integer"));
        assert!(a.convert(&JType::Primitive('I'), &serde_json::json!("7"), 0).is_err());
    }

    #[test]
    fn strings_chars_dates_and_binary() {
        let a = api();
        let s = class("java.lang.String", vec![]);
        assert_eq!(a.convert(&s, &serde_json::json!("hé"), 0), Ok(Value::String("hé".into())));
        assert!(a.convert(&s, &serde_json::json!(1), 0).is_err());
        assert_eq!(a.convert(&JType::Primitive('C'), &serde_json::json!("x"), 0), Ok(Value::String("x".into())));
        assert!(a.convert(&JType::Primitive('C'), &serde_json::json!("xy"), 0).is_err());
        let date = class("java.util.Date", vec![]);
        assert_eq!(a.convert(&date, &serde_json::json!(1200000000000i64), 0), Ok(Value::Date(1200000000000)));
        assert_eq!(a.convert(&date, &serde_json::json!("2008-01-10T21:20:00Z"), 0), Ok(Value::Date(1200000000000)));
        let bytes = JType::Array(Box::new(JType::Primitive('B')));
        assert_eq!(a.convert(&bytes, &serde_json::json!("AAEC"), 0), Ok(Value::Binary(vec![0, 1, 2])));
    }

    #[test]
    fn arrays_lists_and_maps_convert_their_elements() {
        let a = api();
        let ints = JType::Array(Box::new(JType::Primitive('I')));
        assert_eq!(
            a.convert(&ints, &serde_json::json!([1, 2]), 0),
            Ok(list(Some("[int".into()), vec![Value::Int(1), Value::Int(2)]))
        );
        let longs = class("java.util.List", vec![class("java.lang.Long", vec![])]);
        assert_eq!(
            a.convert(&longs, &serde_json::json!([1, null]), 0),
            Ok(list(None, vec![Value::Long(1), Value::Null]))
        );
        let e = a.convert(&longs, &serde_json::json!([1, "x"]), 0).unwrap_err();
        assert!(e.starts_with("[1]: expected an integer for long"), "{e}");
        let m = class("java.util.Map", vec![class("java.lang.Integer", vec![]), string_type()]);
        let got = a.convert(&m, &serde_json::json!({"3": "three"}), 0).unwrap();
        assert_eq!(
            got,
            Value::Map(Box::new(Map {
                type_name: None,
                entries: vec![(Value::Int(3), Value::String("three".into()))]
            }))
        );
        assert!(a.convert(&m, &serde_json::json!({"x": "three"}), 0).unwrap_err().contains("key \"x\""));
        // Object takes typed JSON
        assert_eq!(a.convert(&object(), &serde_json::json!({"long": 5}), 0), Ok(Value::Long(5)));
    }
}
