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

/// Escapes a fault message as `HessianSkeleton.escapeMessage` does (`<`, `>`, `&`, NUL).
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

/// The detail object of a Java exception as Hessian serializes a `Throwable`: an object of the
/// exception's class with its `detailMessage`, a null `cause` and an empty `stackTrace`. A Java
/// client whose class path has the class rebuilds and throws that very exception.
pub fn java_exception(class: &str, message: &str) -> Value {
    let def = ClassDef::new(class, ["detailMessage", "cause", "stackTrace"]);
    Value::object(
        def,
        vec![Value::string(message), Value::Null, Value::typed_list("[java.lang.StackTraceElement", Vec::new())],
    )
}

/// A `ServiceException` fault carrying a Java exception of class `class` (e.g.
/// `java.lang.IllegalArgumentException`), as `HessianSkeleton` writes an exception thrown by a
/// service method. The message is escaped as Java escapes it.
pub fn service_exception(class: &str, message: &str) -> Fault {
    let message = escape_message(message);
    Fault { code: SERVICE_EXCEPTION.into(), detail: Some(java_exception(class, &message)), message }
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

/// The error of a service method: a Java exception class and a message, sent the way
/// `HessianSkeleton` sends an exception thrown by a method (a `ServiceException` fault whose
/// detail is the exception object, so a Java client rethrows that very class).
///
/// Any `std::error::Error` converts into it as a `java.lang.RuntimeException` with the error's
/// message (and its sources'), so methods returning `Result<T, ServiceError>` can use `?` on
/// any error; [`ServiceError::new`] chooses the class.
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
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceError {
    class: std::borrow::Cow<'static, str>,
    message: String,
}

impl ServiceError {
    /// An exception of the Java class `class` (e.g. `java.lang.IllegalStateException`, or
    /// an application exception class the Java client knows) with `message`.
    pub fn new(class: impl Into<std::borrow::Cow<'static, str>>, message: impl fmt::Display) -> Self {
        ServiceError { class: class.into(), message: message.to_string() }
    }

    /// A `java.lang.IllegalArgumentException`.
    pub fn illegal_argument(message: impl fmt::Display) -> Self {
        Self::new("java.lang.IllegalArgumentException", message)
    }

    /// A `java.lang.IllegalStateException`.
    pub fn illegal_state(message: impl fmt::Display) -> Self {
        Self::new("java.lang.IllegalStateException", message)
    }

    /// The Java exception class.
    pub fn class(&self) -> &str {
        &self.class
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.class, self.message)
    }
}

impl<E: std::error::Error> From<E> for ServiceError {
    fn from(e: E) -> Self {
        ServiceError::new(RUNTIME_EXCEPTION, crate::error::error_chain(&e))
    }
}

impl IntoFault for ServiceError {
    fn into_fault(self) -> Fault {
        service_exception(&self.class, &self.message)
    }
}

/// A fault received from a server, with accessors for what Java puts in it.
#[derive(Clone, Debug, PartialEq)]
pub struct RemoteFault(pub Fault);

impl RemoteFault {
    /// The fault code (`ServiceException`, `NoSuchMethodException`, …).
    pub fn code(&self) -> &str {
        &self.0.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.0.message
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

    /// The underlying fault.
    pub fn into_inner(self) -> Fault {
        self.0
    }
}

impl fmt::Display for RemoteFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.code, self.0.message)?;
        if let Some(c) = self.exception_class() {
            write!(f, " ({c})")?;
        }
        Ok(())
    }
}

impl std::error::Error for RemoteFault {}

impl From<Fault> for RemoteFault {
    fn from(f: Fault) -> Self {
        RemoteFault(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_like_java() {
        assert_eq!(escape_message("a<b>&\0c"), "a&lt;b&gt;&amp;&#00;c");
    }

    #[test]
    fn exception_class_from_detail() {
        let f = RemoteFault(service_exception("java.lang.IllegalStateException", "bad"));
        assert_eq!(f.exception_class(), Some("java.lang.IllegalStateException"));
        assert_eq!(f.message(), "bad");
    }
}
