//! Faults: building them the way Java's `HessianSkeleton` writes them, and reading what a Java
//! server sent (its code, message, and the Java exception carried as `detail`).

use hessian::{ClassDef, Fault, Value};
use std::fmt;

/// Fault code `HessianSkeleton` writes when the service method threw an exception.
pub const SERVICE_EXCEPTION: &str = "ServiceException";
/// Fault code for a method name the service does not have.
pub const NO_SUCH_METHOD_EXCEPTION: &str = "NoSuchMethodException";
/// Fault code for a call whose argument count does not match the method.
pub const NO_SUCH_METHOD: &str = "NoSuchMethod";
/// Fault code for a call that could not be decoded.
pub const PROTOCOL_EXCEPTION: &str = "ProtocolException";

/// Escapes a fault message as `HessianSkeleton.escapeMessage` does (`<`, `>`, `&`, NUL); a null
/// message stays null there.
pub fn escape_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for c in message.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\0' => out.push_str("&#00;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// The detail object of a Java exception as Hessian serializes a `Throwable` thrown without
/// stack frames: an object of the exception's class with its raw `detailMessage`, `cause`
/// referring back to the exception itself (Java's "no cause"), an empty `stackTrace` and an
/// empty `suppressedExceptions`; references numbered as in a Hessian 2 fault
/// ([`exception_detail`]). A Java client whose class path has the class rebuilds and throws
/// that very exception.
pub fn java_exception(class: &str, message: &str) -> Value {
    exception_detail(&ServiceError::new(class.to_owned(), message))
}

/// The fault `HessianSkeleton` writes for the exception `e` (its message escaped, `None` staying
/// null).
fn skeleton_fault(e: &ServiceError) -> Fault {
    Fault {
        code: SERVICE_EXCEPTION.into(),
        message: e.message.as_deref().map(escape_message),
        detail: Some(exception_detail(e)),
    }
}

/// A `ServiceException` fault carrying a Java exception of class `class` (e.g.
/// `java.lang.IllegalArgumentException`), as `HessianSkeleton` writes an exception thrown by a
/// service method: the fault's message escaped as Java escapes it, the raw one in the
/// exception object.
pub fn service_exception(class: &str, message: &str) -> Fault {
    ServiceError::new(class.to_owned(), message).into_fault()
}

/// The fault `HessianSkeleton` writes for an unknown method.
pub fn no_such_method(method: &str) -> Fault {
    Fault::new(NO_SUCH_METHOD_EXCEPTION, escape_message(&format!("The service has no method named: {method}")))
}

/// Turns a service method's error into the fault its caller receives. Implement it for your
/// own error types to choose the Java exception class a Java client catches; [`Fault`],
/// [`ServiceError`] (into which any `std::error::Error` converts) and `Infallible` have it.
pub trait IntoFault {
    /// The fault to send.
    fn into_fault(self) -> Fault;
}

impl IntoFault for Fault {
    fn into_fault(self) -> Fault {
        self
    }
}

impl IntoFault for std::convert::Infallible {
    fn into_fault(self) -> Fault {
        match self {}
    }
}

/// Java's class for an exception that has no more specific class.
pub const RUNTIME_EXCEPTION: &str = "java.lang.RuntimeException";

/// The error of a service method: a Java exception class and a message (possibly null, as
/// Java's `getMessage()` may be: [`without_message`](ServiceError::without_message)), sent the way
/// `HessianSkeleton` sends an exception thrown by a method (a `ServiceException` fault whose
/// detail is the exception object, so a Java client rethrows that very class).
///
/// Any `std::error::Error` converts into it as a `java.lang.RuntimeException` with the error's
/// message (and its sources'), so methods returning `Result<T, ServiceError>` can use `?` on
/// any error; [`ServiceError::new`] chooses the class. An application exception's own fields
/// (`NotFoundException.id`) go in with [`with_detail`](ServiceError::with_detail), and its cause
/// with [`with_cause`](ServiceError::with_cause): a Java client then catches that class with its
/// fields and cause set. The fault's bytes are those `HessianServlet` writes for the same
/// exception thrown with an empty stack trace.
///
/// ```
/// use hessian_rpc::ServiceError;
/// fn parse(s: &str) -> Result<i32, ServiceError> {
///     let n: i32 = s.parse()?; // a ParseIntError becomes a java.lang.RuntimeException
///     if n < 0 {
///         return Err(ServiceError::illegal_argument(format!("{n} is negative")));
///     }
///     Ok(n)
/// }
/// assert_eq!(parse("x").unwrap_err().class(), "java.lang.RuntimeException");
/// assert_eq!(parse("-1").unwrap_err().class(), "java.lang.IllegalArgumentException");
///
/// #[derive(serde::Serialize)]
/// #[serde(rename = "com.acme.inventory.NotFoundException")]
/// struct NotFound {
///     id: i64,
/// }
/// let e = ServiceError::new("com.acme.inventory.NotFoundException", "no item 42")
///     .with_detail(&NotFound { id: 42 })
///     .unwrap();
/// assert_eq!(e.detail_fields().len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceError {
    class: std::borrow::Cow<'static, str>,
    message: Option<String>,
    /// The exception's own fields (not `Throwable`'s), in the order Caucho writes them.
    fields: Vec<(String, Value)>,
    /// How many of `fields` Caucho writes before `Throwable`'s `detailMessage` (the class's
    /// primitive and `java.lang` fields), when the Java field types are known
    /// ([`DeclaredException::EARLY_FIELDS`]); otherwise guessed from the values.
    early: Option<usize>,
    cause: Option<Box<ServiceError>>,
}

/// `Throwable`'s own fields, which [`ServiceError`] writes itself.
const THROWABLE_FIELDS: [&str; 4] = ["detailMessage", "cause", "stackTrace", "suppressedExceptions"];

impl ServiceError {
    /// An exception of the Java class `class` (e.g. `java.lang.IllegalStateException`, or
    /// an application exception class the Java client knows) with `message`.
    pub fn new(class: impl Into<std::borrow::Cow<'static, str>>, message: impl fmt::Display) -> Self {
        ServiceError {
            class: class.into(),
            message: Some(message.to_string()),
            fields: Vec::new(),
            early: None,
            cause: None,
        }
    }

    /// An exception of the Java class `class` whose message is null (Java's `new E()`:
    /// `getMessage()` returns null, and the fault carries `N` for it).
    pub fn without_message(class: impl Into<std::borrow::Cow<'static, str>>) -> Self {
        ServiceError { class: class.into(), message: None, fields: Vec::new(), early: None, cause: None }
    }

    /// The declared exception `e` (a struct `hessian codegen` generates for an exception class)
    /// with its message, cause and fields, the fields in the order Caucho writes them by their
    /// Java types ([`DeclaredException::EARLY_FIELDS`]). An error when `e` cannot be encoded.
    pub fn from_exception<E: DeclaredException>(e: &E) -> Result<Self, hessian::Error> {
        let mut s = ServiceError {
            class: E::CLASS.into(),
            message: e.message().map(str::to_owned),
            fields: Vec::new(),
            early: None,
            cause: e.cause().map(|c| Box::new(c.clone())),
        };
        s = s.with_detail(e)?;
        let (mut first, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut s.fields).into_iter().partition(|(k, _)| E::EARLY_FIELDS.contains(&k.as_str()));
        s.early = Some(first.len());
        first.extend(rest);
        s.fields = first;
        Ok(s)
    }

    /// A `java.lang.IllegalArgumentException`.
    pub fn illegal_argument(message: impl fmt::Display) -> Self {
        Self::new("java.lang.IllegalArgumentException", message)
    }

    /// A `java.lang.IllegalStateException`.
    pub fn illegal_state(message: impl fmt::Display) -> Self {
        Self::new("java.lang.IllegalStateException", message)
    }

    /// Sets the exception's own fields from `detail`, a struct of the exception class's fields
    /// in the order Caucho writes them (the class's primitive and `java.lang` fields first).
    /// `Throwable`'s fields in it (`detailMessage`, `cause`, …) are left out: the message and
    /// cause are the error's own. An error when `detail` is not a struct or cannot be encoded.
    ///
    /// Caucho writes `Throwable`'s `detailMessage` and `cause` after the class's primitive and
    /// `java.lang` fields and before its others, which only the Java field types tell apart:
    /// here they are guessed from the values (a null counts as a `java.lang` field), which is
    /// wrong for a null nested object or list. A struct that implements [`DeclaredException`]
    /// (as generated ones do) knows its fields' types: use [`from_exception`](Self::from_exception).
    pub fn with_detail(mut self, detail: &impl serde::Serialize) -> Result<Self, hessian::Error> {
        let fields = match hessian::serde::to_value(detail)? {
            Value::Object(o) => o.class.fields.iter().cloned().zip(o.fields).collect::<Vec<_>>(),
            Value::Map(m) => m
                .entries
                .into_iter()
                .filter_map(|(k, v)| match k {
                    Value::String(k) => Some((k, v)),
                    _ => None,
                })
                .collect(),
            other => {
                return Err(hessian::Error::new(
                    hessian::ErrorKind::Unencodable(format!(
                        "the detail of {} must be a struct of its fields, not {}",
                        self.class,
                        other.kind_name()
                    )),
                    0,
                ))
            }
        };
        self.fields = fields.into_iter().filter(|(k, _)| !THROWABLE_FIELDS.contains(&k.as_str())).collect();
        self.early = None;
        Ok(self)
    }

    /// Sets what caused this exception (Java's `getCause()`).
    pub fn with_cause(mut self, cause: ServiceError) -> Self {
        self.cause = Some(Box::new(cause));
        self
    }

    /// The Java exception class.
    pub fn class(&self) -> &str {
        &self.class
    }

    /// The message, `None` when it is null (Java's `getMessage() == null`).
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The exception's own fields set by [`with_detail`](Self::with_detail), by name.
    pub fn detail_fields(&self) -> &[(String, Value)] {
        &self.fields
    }

    /// The cause, if any.
    pub fn cause(&self) -> Option<&ServiceError> {
        self.cause.as_deref()
    }

    /// The exception object as `HessianSkeleton` writes it in a Hessian 2 fault's detail, with
    /// references numbered from `next` (the fault's map is reference 0, so a detail starts at
    /// 1): see [`exception_detail`].
    fn exception_value(&self, next: &mut u32, sentinel: &mut Option<u32>) -> Value {
        let me = *next;
        *next += 1;
        // Caucho's field order: the class's primitive and java.lang fields, then Throwable's
        // (detailMessage, cause); the class's other fields, then Throwable's (stackTrace,
        // suppressedExceptions).
        let split = self
            .early
            .unwrap_or_else(|| self.fields.iter().position(|(_, v)| !early_value(v)).unwrap_or(self.fields.len()))
            .min(self.fields.len());
        let mut names: Vec<String> = Vec::with_capacity(self.fields.len() + 4);
        let mut values: Vec<Value> = Vec::with_capacity(self.fields.len() + 4);
        for (k, v) in &self.fields[..split] {
            *next += count_refs(v);
            names.push(k.clone());
            values.push(v.clone());
        }
        names.push("detailMessage".into());
        values.push(self.message.clone().map_or(Value::Null, Value::String));
        names.push("cause".into());
        values.push(match &self.cause {
            // Java's "no cause": the field refers to the exception itself
            None => Value::Ref(me),
            Some(c) => c.exception_value(next, sentinel),
        });
        for (k, v) in &self.fields[split..] {
            *next += count_refs(v);
            names.push(k.clone());
            values.push(v.clone());
        }
        names.push("stackTrace".into());
        values.push(Value::typed_list("[java.lang.StackTraceElement", Vec::new()));
        *next += 1;
        names.push("suppressedExceptions".into());
        values.push(match *sentinel {
            // Throwable's SUPPRESSED_SENTINEL, one list shared by every exception
            Some(r) => Value::Ref(r),
            None => {
                *sentinel = Some(*next);
                *next += 1;
                Value::typed_list("java.util.Collections$EmptyList", Vec::new())
            }
        });
        Value::object(ClassDef::new(self.class.as_ref(), names), values)
    }
}

impl ServiceError {
    /// A received exception's class, message and cause chain (its stack trace and fields are
    /// not kept), e.g. to send it on.
    pub fn from_java(e: &JavaException) -> Self {
        let mut s = ServiceError::without_message(e.class.clone());
        s.message = e.message.clone();
        if let Some(c) = &e.cause {
            s.cause = Some(Box::new(ServiceError::from_java(c)));
        }
        s
    }
}

/// A Rust type of a Java exception class: a struct of the class's own fields (those of its
/// superclasses up to `Throwable`'s) with its message and cause, as `hessian codegen` generates
/// for each exception a method declares. It tells [`ServiceError::from_exception`] the class
/// and which fields Caucho writes before `Throwable`'s (those of primitive and `java.lang`
/// types), which the values alone cannot tell when a field is null.
pub trait DeclaredException: serde::Serialize {
    /// The Java class, e.g. `com.acme.inventory.NotFoundException`.
    const CLASS: &'static str;
    /// The Java names of the fields of primitive and `java.lang` types (not `Object`): Caucho
    /// writes them before `Throwable`'s `detailMessage` and `cause`, the others after.
    const EARLY_FIELDS: &'static [&'static str];
    /// The message (`getMessage()`), `None` for null.
    fn message(&self) -> Option<&str>;
    /// The cause (`getCause()`), if any.
    fn cause(&self) -> Option<&ServiceError>;
}

/// The fault of a declared exception `e` (generated code), as [`ServiceError::from_exception`]
/// writes it. Should its fields not encode, the fault still names the class and carries the
/// message, with the reason appended.
pub fn exception_fault<E: DeclaredException>(e: &E) -> Fault {
    match ServiceError::from_exception(e) {
        Ok(s) => s.into_fault(),
        Err(why) => {
            let message = format!("{} (its fields could not be encoded: {why})", e.message().unwrap_or("null"));
            let mut s = ServiceError::new(E::CLASS, message);
            s.cause = e.cause().map(|c| Box::new(c.clone()));
            s.into_fault()
        }
    }
}

/// A declared exception of type `E` (a struct of its class's fields, generated code) from a
/// received fault, with the exception's cause chain: see [`RemoteFault::detail_as`].
pub fn decode_exception<E: serde::de::DeserializeOwned>(
    fault: &RemoteFault,
) -> Result<(E, Option<ServiceError>), DetailError> {
    let e = fault.detail_as::<E>()?;
    let cause = fault.exception().ok().and_then(|j| j.cause.as_deref().map(ServiceError::from_java));
    Ok((e, cause))
}

/// Whether Caucho's serializer writes a field of this value with the primitive and
/// `java.lang` fields (first): numbers, booleans, strings and nulls.
fn early_value(v: &Value) -> bool {
    matches!(v, Value::Null | Value::Bool(_) | Value::Int(_) | Value::Long(_) | Value::Double(_) | Value::String(_))
}

/// How many references writing `v` takes (its lists, maps and objects).
fn count_refs(v: &Value) -> u32 {
    match v {
        Value::List(l) => 1 + l.items.iter().map(count_refs).sum::<u32>(),
        Value::Map(m) => 1 + m.entries.iter().map(|(k, x)| count_refs(k) + count_refs(x)).sum::<u32>(),
        Value::Object(o) => 1 + o.fields.iter().map(count_refs).sum::<u32>(),
        _ => 0,
    }
}

/// The detail of the fault of `e` as `HessianServlet` writes it in Hessian 2: the exception
/// object of `e`'s class with its own fields, the raw message in `detailMessage`, `cause` the
/// cause's object or (without a cause) a reference to the exception itself, an empty
/// `stackTrace` and Throwable's shared empty `suppressedExceptions` list. References are
/// numbered as in a Hessian 2 fault (the detail is reference 1); [`crate::protocol::encode_reply`]
/// renumbers them for Hessian 1 and Burlap.
pub fn exception_detail(e: &ServiceError) -> Value {
    e.exception_value(&mut 1, &mut None)
}

/// Shifts every reference of `v` down by one: a Hessian 2 fault detail's numbering (the fault's
/// map is reference 0) made a Hessian 1 or Burlap one (the detail is reference 0).
pub(crate) fn rebase_refs(v: &mut Value) {
    match v {
        Value::Ref(n) => *n = n.saturating_sub(1),
        Value::List(l) => l.items.iter_mut().for_each(rebase_refs),
        Value::Map(m) => m.entries.iter_mut().for_each(|(k, x)| {
            rebase_refs(k);
            rebase_refs(x);
        }),
        Value::Object(o) => o.fields.iter_mut().for_each(rebase_refs),
        _ => {}
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.class)?;
        if let Some(m) = &self.message {
            write!(f, ": {m}")?;
        }
        if let Some(c) = &self.cause {
            write!(f, " (caused by {c})")?;
        }
        Ok(())
    }
}

impl<E: std::error::Error> From<E> for ServiceError {
    fn from(e: E) -> Self {
        ServiceError::new(RUNTIME_EXCEPTION, crate::error::error_chain(&e))
    }
}

impl IntoFault for ServiceError {
    fn into_fault(self) -> Fault {
        skeleton_fault(&self)
    }
}

/// A fault received from a server, with accessors for what Java puts in it. Its `Debug` form
/// is a summary (code, message, the exception's class, causes and frame count), not the whole
/// detail; [`RemoteFault::detail`] has everything Java sent.
#[derive(Clone, PartialEq)]
pub struct RemoteFault(pub Fault, pub(crate) u32);

impl RemoteFault {
    /// The fault code (`ServiceException`, `NoSuchMethodException`, …).
    pub fn code(&self) -> &str {
        &self.0.code
    }

    /// The message, `None` when the server sent null (Java's exception without a message).
    pub fn message(&self) -> Option<&str> {
        self.0.message.as_deref()
    }

    /// The detail value, if any (for Java servers, the exception object).
    pub fn detail(&self) -> Option<&Value> {
        self.0.detail.as_ref()
    }

    /// The Java class name of the exception in the detail (an object's class or a typed map's
    /// type), e.g. `java.lang.IllegalStateException`.
    pub fn exception_class(&self) -> Option<&str> {
        match self.0.detail.as_ref()? {
            Value::Object(o) => Some(&o.class.name),
            Value::Map(m) => m.type_name.as_deref(),
            _ => None,
        }
    }

    /// The exception of the detail decoded into `E`, a struct of the exception class's fields
    /// (such as one `hessian codegen` generates for a declared exception; `Throwable`'s fields
    /// and unknown ones are skipped). An error naming the class when there is no detail or it
    /// does not fit `E`'s fields.
    pub fn detail_as<E: serde::de::DeserializeOwned>(&self) -> Result<E, DetailError> {
        let class = self.exception_class().unwrap_or("the fault's detail").to_owned();
        let detail = self.0.detail.clone().ok_or_else(|| DetailError::NoDetail { class: class.clone() })?;
        hessian::serde::from_value(detail).map_err(|source| DetailError::Fields { class, source })
    }

    /// The underlying fault.
    pub fn into_inner(self) -> Fault {
        self.0
    }

    /// The Java exception of the detail, with its cause chain and stack trace, as a Java
    /// skeleton sends it (an error when the detail is not an exception, or its causes loop).
    pub fn exception(&self) -> Result<JavaException, ExceptionError> {
        let detail = self.0.detail.as_ref().ok_or(ExceptionError::NoDetail)?;
        JavaException::from_value(detail, self.1)
    }

    /// A received fault of a reply in `protocol`: a Hessian 2 fault's map is the message's first
    /// referenceable value, so references in its detail count from 1; in Hessian 1 and Burlap
    /// from 0.
    pub(crate) fn of(fault: Fault, protocol: crate::Format) -> RemoteFault {
        RemoteFault(fault, u32::from(protocol == crate::Format::Hessian2))
    }
}

/// Why a fault's detail is not the exception a typed client expected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DetailError {
    /// The fault has no detail.
    #[error("the fault of {class} has no exception detail")]
    NoDetail {
        /// The exception class the fault names, if any.
        class: String,
    },
    /// The detail does not fit the fields of the exception's Rust type.
    #[error("the detail of {class} does not match its declared fields: {source}")]
    Fields {
        /// The exception class.
        class: String,
        /// What did not fit.
        source: hessian::Error,
    },
}

/// One frame of a Java stack trace (`java.lang.StackTraceElement`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackFrame {
    /// The class, e.g. `com.example.Bank`.
    pub declaring_class: String,
    /// The method.
    pub method: String,
    /// The source file, when known.
    pub file: Option<String>,
    /// The line number (negative when unknown, -2 for a native method).
    pub line: i32,
}

/// A Java exception as Caucho serializes a `Throwable` into a fault's detail: its class, message,
/// cause chain, stack trace and suppressed exceptions. Its `Debug` form counts the frames rather
/// than listing them; [`JavaException::trace`] writes them as Java prints a stack trace.
#[derive(Clone, PartialEq, Eq)]
pub struct JavaException {
    /// The exception's class, e.g. `java.lang.IllegalStateException`.
    pub class: String,
    /// Its message (`detailMessage`).
    pub message: Option<String>,
    /// What caused it (Java's `getCause()`).
    pub cause: Option<Box<JavaException>>,
    /// Where it was thrown, innermost frame first.
    pub stack_trace: Vec<StackFrame>,
    /// Exceptions suppressed in its favour (`getSuppressed()`).
    pub suppressed: Vec<JavaException>,
}

/// Why a fault's detail is not a [`JavaException`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExceptionError {
    /// The fault has no detail.
    #[error("the fault has no detail")]
    NoDetail,
    /// The detail (or a cause in it) is not an exception object.
    #[error("not an exception: {0}")]
    NotAnException(String),
    /// The cause chain comes back to an exception already in it.
    #[error("the cause chain of {class} loops back to {back_to}")]
    CyclicCause {
        /// The exception whose cause closes the loop.
        class: String,
        /// The exception it points back to.
        back_to: String,
    },
    /// A reference that points outside the detail.
    #[error("reference {0} points outside the exception")]
    BadReference(u32),
}

impl JavaException {
    /// The exception of a fault detail `v`; `ref_base` is the reference number of `v` itself in
    /// its message (1 in a Hessian 2 fault, 0 in Hessian 1 and Burlap).
    pub fn from_value(v: &Value, ref_base: u32) -> Result<JavaException, ExceptionError> {
        let table = v.reference_table();
        let mut chain = Vec::new();
        parse(v, &table, ref_base, &mut chain)
    }

    /// The exception and its causes, outermost first.
    pub fn chain(&self) -> impl Iterator<Item = &JavaException> {
        std::iter::successors(Some(self), |e| e.cause.as_deref())
    }

    /// The exception as Java prints a stack trace: `class: message`, then at most `frames`
    /// frames of it and of each cause (`... N more` for the rest), each cause after
    /// `Caused by: `. `usize::MAX` prints every frame, as [`Display`](fmt::Display) does.
    pub fn trace(&self, frames: usize) -> String {
        let mut out = String::new();
        for (i, e) in self.chain().enumerate() {
            if i > 0 {
                out.push_str("\nCaused by: ");
            }
            out.push_str(&e.class);
            if let Some(m) = &e.message {
                out.push_str(": ");
                out.push_str(m);
            }
            for s in e.stack_trace.iter().take(frames) {
                let file = s.file.as_deref().unwrap_or("Unknown Source");
                out.push_str(&format!("\n\tat {}.{}({file}:{})", s.declaring_class, s.method, s.line));
            }
            if e.stack_trace.len() > frames {
                out.push_str(&format!("\n\t... {} more", e.stack_trace.len() - frames));
            }
        }
        out
    }
}

/// At most 200 characters of `s` (for `Debug` forms).
fn brief(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &s[..at]).into(),
        None => s.into(),
    }
}

impl fmt::Debug for JavaException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JavaException")
            .field("class", &self.class)
            .field("message", &self.message.as_deref().map(brief))
            .field("frames", &self.stack_trace.len())
            .field("cause", &self.cause)
            .field("suppressed", &self.suppressed.len())
            .finish()
    }
}

impl fmt::Debug for RemoteFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("RemoteFault");
        d.field("code", &self.0.code).field("message", &self.0.message.as_deref().map(brief));
        match (&self.0.detail, self.exception()) {
            (None, _) => d.field("detail", &None::<()>),
            (Some(_), Ok(e)) => d.field("exception", &e),
            (Some(v), Err(_)) => d.field("detail", &brief(&v.to_string())),
        };
        d.finish()
    }
}

impl fmt::Display for JavaException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.chain().enumerate() {
            if i > 0 {
                f.write_str("\nCaused by: ")?;
            }
            f.write_str(&e.class)?;
            if let Some(m) = &e.message {
                write!(f, ": {m}")?;
            }
            for s in &e.stack_trace {
                write!(
                    f,
                    "\n\tat {}.{}({}:{})",
                    s.declaring_class,
                    s.method,
                    s.file.as_deref().unwrap_or("Unknown Source"),
                    s.line
                )?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for JavaException {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.as_deref().map(|c| c as &(dyn std::error::Error + 'static))
    }
}

fn resolve<'a>(v: &'a Value, table: &[&'a Value], base: u32) -> Result<&'a Value, ExceptionError> {
    match v {
        Value::Ref(n) => {
            n.checked_sub(base).and_then(|i| table.get(i as usize)).copied().ok_or(ExceptionError::BadReference(*n))
        }
        _ => Ok(v),
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn fields_of(v: &Value) -> Option<(&str, Vec<(&str, &Value)>)> {
    match v {
        Value::Object(o) => {
            Some((&o.class.name, o.class.fields.iter().map(String::as_str).zip(o.fields.iter()).collect()))
        }
        Value::Map(m) => Some((
            m.type_name.as_deref()?,
            m.entries
                .iter()
                .filter_map(|(k, x)| match k {
                    Value::String(s) => Some((s.as_str(), x)),
                    _ => None,
                })
                .collect(),
        )),
        _ => None,
    }
}

fn parse<'a>(
    v: &'a Value,
    table: &[&'a Value],
    base: u32,
    chain: &mut Vec<*const Value>,
) -> Result<JavaException, ExceptionError> {
    let (class, fields) = fields_of(v).ok_or_else(|| ExceptionError::NotAnException(v.to_string()))?;
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, x)| *x);
    chain.push(v as *const Value);
    let cause = match get("cause") {
        None | Some(Value::Null) => None,
        Some(c) => {
            let target = resolve(c, table, base)?;
            if std::ptr::eq(target, v) {
                None // Java's "no cause": the field points at the exception itself
            } else if chain.contains(&(target as *const Value)) {
                let back_to = fields_of(target).map_or_else(|| target.to_string(), |(c, _)| c.to_owned());
                return Err(ExceptionError::CyclicCause { class: class.to_owned(), back_to });
            } else {
                Some(Box::new(parse(target, table, base, chain)?))
            }
        }
    };
    let mut stack_trace = Vec::new();
    if let Some(Value::List(l)) = get("stackTrace").map(|x| resolve(x, table, base)).transpose()? {
        for frame in &l.items {
            let frame = resolve(frame, table, base)?;
            let Some((_, ff)) = fields_of(frame) else { continue };
            let g = |name: &str| ff.iter().find(|(n, _)| *n == name).map(|(_, x)| *x);
            stack_trace.push(StackFrame {
                declaring_class: text(g("declaringClass")).unwrap_or_default(),
                method: text(g("methodName")).unwrap_or_default(),
                file: text(g("fileName")),
                line: match g("lineNumber") {
                    Some(Value::Int(n)) => *n,
                    _ => -1,
                },
            });
        }
    }
    let mut suppressed = Vec::new();
    if let Some(Value::List(l)) = get("suppressedExceptions").map(|x| resolve(x, table, base)).transpose()? {
        for s in &l.items {
            let s = resolve(s, table, base)?;
            if fields_of(s).is_some() && !chain.contains(&(s as *const Value)) {
                suppressed.push(parse(s, table, base, chain)?);
            }
        }
    }
    chain.pop();
    Ok(JavaException { class: class.to_owned(), message: text(get("detailMessage")), cause, stack_trace, suppressed })
}

impl fmt::Display for RemoteFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.code)?;
        if let Some(m) = &self.0.message {
            write!(f, ": {m}")?;
        }
        if let Some(c) = self.exception_class() {
            write!(f, " ({c})")?;
        }
        Ok(())
    }
}

impl std::error::Error for RemoteFault {}

impl From<Fault> for RemoteFault {
    /// A fault of a Hessian 2 reply (see [`RemoteFault::exception`]).
    fn from(f: Fault) -> Self {
        RemoteFault(f, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_java() {
        assert_eq!(escape_message("a<b>&\0c"), "a&lt;b&gt;&amp;&#00;c");
    }

    /// A Java exception with `frames` frames and a cause with as many.
    fn deep_exception(frames: usize) -> Value {
        let frame_def =
            ClassDef::new("java.lang.StackTraceElement", ["declaringClass", "methodName", "fileName", "lineNumber"]);
        let trace = |class: &str| {
            let items = (0..frames)
                .map(|i| {
                    Value::object(
                        frame_def.clone(),
                        vec![
                            Value::string(class),
                            Value::string(format!("m{i}")),
                            Value::string("A.java"),
                            Value::Int(i as i32),
                        ],
                    )
                })
                .collect();
            Value::typed_list("[java.lang.StackTraceElement", items)
        };
        let def = ClassDef::new("java.io.IOException", ["detailMessage", "cause", "stackTrace"]);
        let cause = Value::object(def, vec![Value::string("disk"), Value::Null, trace("com.acme.Disk")]);
        let def = ClassDef::new("com.acme.NotFoundException", ["detailMessage", "cause", "stackTrace"]);
        Value::object(def, vec![Value::string("no item 4"), cause, trace("com.acme.Inventory")])
    }

    #[test]
    fn debug_forms_are_summaries() {
        let fault = Fault {
            code: SERVICE_EXCEPTION.into(),
            message: Some("no item 4".into()),
            detail: Some(deep_exception(400)),
        };
        let f = RemoteFault::of(fault, crate::Format::Hessian1);
        let debug = format!("{f:?}");
        assert!(debug.len() < 400, "{} bytes: {debug}", debug.len());
        assert!(debug.contains("com.acme.NotFoundException") && debug.contains("frames: 400"), "{debug}");
        assert!(debug.contains("java.io.IOException") && debug.contains("\"disk\""), "{debug}");
        let e = crate::Error::Fault(f.clone());
        assert!(format!("{e:?}").len() < 400);
        // the trace: the top frames of each exception in the chain, and how many more
        let trace = f.exception().unwrap().trace(2);
        assert_eq!(
            trace,
            "com.acme.NotFoundException: no item 4\n\tat com.acme.Inventory.m0(A.java:0)\n\t\
             at com.acme.Inventory.m1(A.java:1)\n\t... 398 more\nCaused by: java.io.IOException: disk\n\t\
             at com.acme.Disk.m0(A.java:0)\n\tat com.acme.Disk.m1(A.java:1)\n\t... 398 more"
        );
        assert_eq!(f.exception().unwrap().trace(usize::MAX), f.exception().unwrap().to_string());
        // a long message is cut, and a detail that is no exception is shown briefly
        let long =
            Fault { code: "X".into(), message: Some("m".repeat(5000)), detail: Some(Value::string("y".repeat(5000))) };
        assert!(format!("{:?}", RemoteFault::from(long)).len() < 500);
    }

    #[test]
    fn exception_class_from_detail() {
        let f = RemoteFault::from(service_exception("java.lang.IllegalStateException", "bad"));
        assert_eq!(f.exception_class(), Some("java.lang.IllegalStateException"));
        assert_eq!(f.message(), Some("bad"));
    }

    #[test]
    fn a_null_message_stays_null() {
        let e = ServiceError::without_message("java.lang.IllegalStateException");
        assert_eq!((e.message(), e.to_string().as_str()), (None, "java.lang.IllegalStateException"));
        let f = RemoteFault::from(e.clone().into_fault());
        assert_eq!(f.message(), None);
        assert_eq!(f.to_string(), "ServiceException (java.lang.IllegalStateException)");
        let java = f.exception().unwrap();
        assert_eq!(java.message, None);
        assert_eq!(ServiceError::from_java(&java), e);
    }

    /// `class E extends Exception { int n; Object o; List<String> l; String s; }`.
    #[derive(serde::Serialize)]
    #[serde(rename = "E")]
    struct E {
        n: i32,
        s: Option<String>,
        o: Option<Value>,
        l: Option<Vec<String>>,
    }

    impl DeclaredException for E {
        const CLASS: &'static str = "E";
        const EARLY_FIELDS: &'static [&'static str] = &["n", "s"];
        fn message(&self) -> Option<&str> {
            None
        }
        fn cause(&self) -> Option<&ServiceError> {
            None
        }
    }

    #[test]
    fn declared_fields_go_where_their_java_types_put_them() {
        let names = |e: &ServiceError| match exception_detail(e) {
            Value::Object(o) => o.class.fields.join(" "),
            other => panic!("{other:?}"),
        };
        let late = "detailMessage cause o l stackTrace suppressedExceptions";
        for e in [E { n: 1, s: None, o: None, l: None }, E { n: 1, s: Some("x".into()), o: None, l: Some(vec![]) }] {
            let typed = ServiceError::from_exception(&e).unwrap();
            assert_eq!(names(&typed), format!("n s {late}"));
            assert_eq!(typed.message(), None);
        }
        // by the values alone a null object or list looks like a java.lang field
        let guessed = ServiceError::without_message("E").with_detail(&E { n: 1, s: None, o: None, l: None }).unwrap();
        assert_eq!(names(&guessed), "n s o l detailMessage cause stackTrace suppressedExceptions");
    }
}
