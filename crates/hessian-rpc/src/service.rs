//! Defining a service: named methods with `Value` arguments, registered under the names Caucho's
//! `AbstractSkeleton` registers (plain name, `name__N` and the mangled `name_type_type`), and
//! dispatched the way `HessianSkeleton` dispatches.

use crate::fault::{self, NO_SUCH_METHOD};
use crate::protocol::Dialect;
use hessian::{Call, Fault, Value};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The future a handler returns.
pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<Value, Fault>> + Send + 'static>>;

/// What a handler learns about the call besides its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct CallContext {
    /// The method name as it was sent (possibly mangled).
    pub method: String,
    /// Call headers (Hessian 1 and Burlap calls can carry them; Hessian 2 calls cannot).
    pub headers: Vec<(String, Value)>,
    /// The protocols of the call and of the reply.
    pub dialect: Dialect,
}

impl CallContext {
    /// The value of the named call header, if the call carried it.
    pub fn header(&self, name: &str) -> Option<&Value> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

/// A method implementation.
pub trait Handler: Send + Sync + 'static {
    /// Runs the method on already-decoded arguments.
    fn call(&self, ctx: CallContext, args: Vec<Value>) -> HandlerFuture;
}

struct FnHandler<F>(F);

impl<F, Fut> Handler for FnHandler<F>
where
    F: Fn(CallContext, Vec<Value>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, Fault>> + Send + 'static,
{
    fn call(&self, ctx: CallContext, args: Vec<Value>) -> HandlerFuture {
        Box::pin((self.0)(ctx, args))
    }
}

/// One method of a service: its name, the Hessian names of its parameter types, its handler.
#[derive(Clone)]
pub struct Method {
    name: String,
    params: Vec<String>,
    handler: Arc<dyn Handler>,
}

impl Method {
    /// The method name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parameter types as Caucho's mangling names them (`int`, `string`, `Order`, …).
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The mangled name `name_type_type…` (`AbstractSkeleton.mangleName(method, false)`).
    pub fn mangled_name(&self) -> String {
        mangle_name(&self.name, &self.params)
    }
}

impl std::fmt::Debug for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({})", self.name, self.params.join(", "))
    }
}

/// `AbstractSkeleton.mangleName`: the method name followed by `_type` for each parameter.
pub fn mangle_name(name: &str, params: &[impl AsRef<str>]) -> String {
    let mut s = name.to_owned();
    for p in params {
        s.push('_');
        s.push_str(p.as_ref());
    }
    s
}

/// `AbstractSkeleton.mangleClass(cl, false)`: the mangled name of a Java type (`int` for
/// `int`/`Integer`/`short`/`byte`, `double` for `float`/`double`, `string`, `date`, `binary` for
/// `byte[]`, `[T` for arrays, the simple class name otherwise).
pub fn mangle_java_class(java_name: &str) -> String {
    match java_name {
        "boolean" | "java.lang.Boolean" => "boolean".into(),
        "int" | "java.lang.Integer" | "short" | "java.lang.Short" | "byte" | "java.lang.Byte" => "int".into(),
        "long" | "java.lang.Long" => "long".into(),
        "float" | "java.lang.Float" | "double" | "java.lang.Double" => "double".into(),
        "java.lang.String" | "com.caucho.util.CharBuffer" | "char" | "java.lang.Character" | "java.io.Reader" => {
            "string".into()
        }
        "java.util.Date" | "com.caucho.util.QDate" => "date".into(),
        "[B" | "java.io.InputStream" => "binary".into(),
        "org.w3c.dom.Node" | "org.w3c.dom.Element" | "org.w3c.dom.Document" => "xml".into(),
        n if n.ends_with("[]") => format!("[{}", mangle_java_class(&n[..n.len() - 2])),
        n => n.rsplit('.').next().unwrap_or(n).to_owned(),
    }
}

/// A service: a set of methods plus the class names `_hessian_getAttribute` reports.
#[derive(Clone, Default)]
pub struct Service {
    methods: HashMap<String, Method>,
    api_class: Option<String>,
    home_class: Option<String>,
    object_class: Option<String>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<_> = self.methods.keys().collect();
        names.sort();
        f.debug_struct("Service").field("api_class", &self.api_class).field("methods", &names).finish()
    }
}

/// The meta method Caucho's Hessian skeleton understands.
pub const GET_ATTRIBUTE: &str = "_hessian_getAttribute";
/// The same meta method as `BurlapSkeleton` names it.
pub const BURLAP_GET_ATTRIBUTE: &str = "_burlap_getAttribute";

impl Service {
    /// Starts an empty service.
    pub fn builder() -> ServiceBuilder {
        ServiceBuilder { service: Service::default() }
    }

    /// Finds the method a call names, as `HessianSkeleton` does: first `name__argc`, then the
    /// name itself (plain or mangled).
    pub fn lookup(&self, method: &str, argc: usize) -> Option<&Method> {
        self.methods.get(&format!("{method}__{argc}")).or_else(|| self.methods.get(method))
    }

    /// All registered names (plain, `__N` and mangled), sorted.
    pub fn method_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.methods.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
    }

    /// Dispatches a decoded call and returns the reply (a value or a fault). Faults follow
    /// `HessianSkeleton`: `NoSuchMethodException` for unknown names, `NoSuchMethod` for an
    /// argument count mismatch, and the handler's own fault otherwise.
    pub async fn dispatch(&self, call: Call, dialect: Dialect) -> Result<Value, Fault> {
        let argc = call.args.len();
        let Some(method) = self.lookup(&call.method, argc) else {
            if call.method == GET_ATTRIBUTE || call.method == BURLAP_GET_ATTRIBUTE {
                return Ok(self.get_attribute(&call.args));
            }
            return Err(fault::no_such_method(&call.method));
        };
        if method.params.len() != argc {
            return Err(Fault::new(
                NO_SUCH_METHOD,
                fault::escape_message(&format!("method {method:?} argument length mismatch, received length={argc}")),
            ));
        }
        let handler = method.handler.clone();
        let ctx = CallContext { method: call.method, headers: call.headers, dialect };
        handler.call(ctx, call.args).await
    }

    fn get_attribute(&self, args: &[Value]) -> Value {
        let value = match args.first().and_then(Value::as_str) {
            Some("java.api.class") => self.api_class.as_deref(),
            Some("java.home.class") => self.home_class.as_deref(),
            Some("java.object.class") => self.object_class.as_deref(),
            _ => None,
        };
        value.map_or(Value::Null, Value::string)
    }
}

/// Builds a [`Service`].
pub struct ServiceBuilder {
    service: Service,
}

impl ServiceBuilder {
    /// The Java interface name reported for `_hessian_getAttribute("java.api.class")`.
    pub fn api_class(mut self, name: impl Into<String>) -> Self {
        self.service.api_class = Some(name.into());
        self
    }

    /// The name reported for `java.home.class`.
    pub fn home_class(mut self, name: impl Into<String>) -> Self {
        self.service.home_class = Some(name.into());
        self
    }

    /// The name reported for `java.object.class`.
    pub fn object_class(mut self, name: impl Into<String>) -> Self {
        self.service.object_class = Some(name.into());
        self
    }

    /// Registers an async method. `params` are the parameter types as Caucho's mangling names
    /// them (`int`, `long`, `double`, `boolean`, `string`, `date`, `binary`, `[int`, or a
    /// simple class name such as `Order`); see [`mangle_java_class`]. The method answers to
    /// its plain name (the first method registered under it wins, as in Java), to
    /// `name__N` and to the mangled `name_type…`.
    pub fn method<F, Fut>(self, name: &str, params: &[&str], f: F) -> Self
    where
        F: Fn(CallContext, Vec<Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, Fault>> + Send + 'static,
    {
        self.handler(name, params, FnHandler(f))
    }

    /// Registers a synchronous method (run inline on the connection's task; keep it short).
    pub fn sync_method<F>(self, name: &str, params: &[&str], f: F) -> Self
    where
        F: Fn(Vec<Value>) -> Result<Value, Fault> + Send + Sync + 'static,
    {
        let f = Arc::new(f);
        self.method(name, params, move |_ctx, args| {
            let f = f.clone();
            async move { f(args) }
        })
    }

    /// Registers a typed synchronous method: the arguments are decoded into the tuple `A` of
    /// `Deserialize` types and the result `R` is encoded with serde. A value that does not
    /// decode as `A` gets an `IllegalArgumentException` fault.
    pub fn typed_method<A, R, F>(self, name: &str, params: &[&str], f: F) -> Self
    where
        A: crate::typed::FromArgs + 'static,
        R: serde::Serialize + 'static,
        F: Fn(A) -> Result<R, Fault> + Send + Sync + 'static,
    {
        let method = name.to_owned();
        self.sync_method(name, params, move |values| {
            let args = A::from_values(values).map_err(|e| {
                fault::service_exception("java.lang.IllegalArgumentException", &format!("{method}: {e}"))
            })?;
            let r = f(args)?;
            crate::typed::to_value(&r)
                .map_err(|e| fault::service_exception("java.lang.IllegalStateException", &format!("{method}: {e}")))
        })
    }

    /// Registers any [`Handler`].
    pub fn handler(mut self, name: &str, params: &[&str], handler: impl Handler) -> Self {
        let m = Method {
            name: name.to_owned(),
            params: params.iter().map(|p| (*p).to_owned()).collect(),
            handler: Arc::new(handler),
        };
        self.service.methods.entry(name.to_owned()).or_insert_with(|| m.clone());
        self.service.methods.insert(format!("{name}__{}", params.len()), m.clone());
        self.service.methods.insert(m.mangled_name(), m);
        self
    }

    /// Finishes the service.
    pub fn build(self) -> Service {
        self.service
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangling_matches_abstract_skeleton() {
        assert_eq!(mangle_java_class("java.lang.Integer"), "int");
        assert_eq!(mangle_java_class("java.util.Date"), "date");
        assert_eq!(mangle_java_class("int[]"), "[int");
        assert_eq!(mangle_java_class("com.squarespace.hopper.types.Order"), "Order");
        assert_eq!(mangle_name("add", &["int", "string"]), "add_int_string");
    }

    #[tokio::test]
    async fn overloads_dispatch_by_arity_and_mangled_name() {
        let s = Service::builder()
            .sync_method("add", &["int", "int"], |a| Ok(Value::Int(a[0].as_i64().unwrap_or(0) as i32 + 2)))
            .sync_method("add", &["int"], |_| Ok(Value::string("one")))
            .sync_method("add", &["string", "string"], |_| Ok(Value::string("strings")))
            .build();
        let d = Dialect::HESSIAN2;
        let call = |m: &str, args: Vec<Value>| Call::new(m, args);
        assert_eq!(s.dispatch(call("add", vec![Value::Int(1)]), d).await, Ok(Value::string("one")));
        assert_eq!(s.dispatch(call("add_string_string", vec![1.into(), 2.into()]), d).await, Ok("strings".into()));
        assert_eq!(s.dispatch(call("add_int_int", vec![1.into(), 2.into()]), d).await, Ok(Value::Int(3)));
        let f = s.dispatch(call("nope", vec![]), d).await.unwrap_err();
        assert_eq!(f.code, "NoSuchMethodException");
        assert_eq!(f.message, "The service has no method named: nope");
        let f = s.dispatch(call("add_int", vec![]), d).await.unwrap_err();
        assert_eq!(f.code, "NoSuchMethod");
    }
}
