//! Defining a service: named methods with `Value` arguments, registered under the names Caucho's
//! `AbstractSkeleton` registers (plain name, `name__N` and the mangled `name_type_type`), and
//! dispatched the way `HessianSkeleton` dispatches.

pub use crate::context::CallContext;
use crate::context::RequestInfo;
use crate::fault::{self, IntoFault, NO_SUCH_METHOD, PROTOCOL_EXCEPTION};
use crate::negotiation::KeyedHash;
use crate::negotiation::{MapCache, UNKNOWN_TYPE_MAP};
use crate::protocol::{self, Dialect, Format};
use crate::typed::{ArgError, FromArgs};
use hessian::negotiate::{Digest, TypeMap};
use hessian::serde::message::CallReader;
use hessian::{Call, ClassDef, ErrorKind, Fault, Limits, Value};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The future a handler returns.
pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<Value, Fault>> + Send + 'static>>;

/// The future of a typed method: the encoded reply body, or a fault.
type ReplyFuture = Pin<Box<dyn Future<Output = Result<Encoded, Fault>> + Send + 'static>>;

/// An encoded reply and the classes it defined (only when asked for, to learn its map).
struct Encoded {
    body: Vec<u8>,
    classes: Vec<Arc<ClassDef>>,
}

/// How a reply is written (the type negotiation extension, `docs/negotiation.md` 5).
#[derive(Clone)]
enum ReplyMode {
    /// A plain reply.
    Plain,
    /// A plain reply whose class definitions are kept as one of the server's reply maps.
    Learn,
    /// A referring reply with the map's classes pre-defined.
    Refer(Arc<TypeMap>),
}

impl ReplyMode {
    /// Encodes a reply carrying `value` in `format` in this mode, into a buffer of `capacity`
    /// bytes to start with.
    fn encode<T: ?Sized + serde::Serialize>(
        &self,
        format: Format,
        value: &T,
        capacity: usize,
    ) -> hessian::Result<Encoded> {
        use hessian::serde::message as m;
        let buf = Vec::with_capacity(capacity);
        Ok(match self {
            ReplyMode::Plain => Encoded { body: m::reply_into(format, value, buf)?, classes: Vec::new() },
            ReplyMode::Learn => {
                let (body, classes) = m::reply_into_with_classes(format, value, buf)?;
                Encoded { body, classes }
            }
            ReplyMode::Refer(map) => {
                Encoded { body: m::reply_into_referring(format, map, value, buf)?, classes: Vec::new() }
            }
        })
    }
}

/// The type negotiation state of one call on a server that speaks the extension.
pub(crate) struct Negotiating<'a> {
    /// The server's maps.
    pub cache: &'a MapCache,
    /// The scope of the call's maps ([`MapCache::scope_of`]).
    pub scope: u64,
    /// The call offered the extension: learn the maps of a plain call and of the reply.
    pub learn: bool,
    /// The server's own reply map the client asked for (`Hessian-Reply-Map`), if kept.
    pub reply_map: Option<Arc<TypeMap>>,
}

/// A reply body and what the type negotiation learned while answering.
#[derive(Default)]
pub(crate) struct Answer {
    pub body: Vec<u8>,
    /// The map learned from a plain call's definitions.
    pub request_map: Option<Digest>,
    /// The map learned from a plain reply's definitions.
    pub reply_map: Option<Digest>,
    /// A referring call named a map this server does not have (nothing was run).
    pub unknown: Option<Digest>,
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

/// A typed method: decodes its arguments from the request body into its own types and encodes
/// its result straight into the reply body.
trait TypedHandler: Send + Sync + 'static {
    /// Decodes the arguments (all of them, or a fault naming the one that failed) and returns
    /// the method's future, not yet started.
    /// The method's future runs with `ctx` as [`CallContext::current`].
    fn start(
        &self,
        ctx: &Arc<CallContext>,
        args: &mut CallReader<'_>,
        reply: ReplyMode,
    ) -> Result<ReplyFuture, ArgError>;
}

struct TypedFn<A, F> {
    name: Arc<str>,
    f: F,
    /// About the size of the method's last reply: the next reply's buffer starts that large, so
    /// that a typical reply is written without growing (and copying) its buffer on the way.
    reply_size: Arc<AtomicUsize>,
    _args: PhantomData<fn() -> A>,
}

/// The most bytes a reply buffer is allocated ahead (larger replies grow as they are written).
const MAX_REPLY_HINT: usize = 64 * 1024;

/// The buffer size to start the next reply with after one of `len` bytes: a little headroom,
/// so that a slightly larger reply still fits.
fn reply_hint(len: usize) -> usize {
    (len + len / 8 + 16).min(MAX_REPLY_HINT)
}

impl<A, R, E, F, Fut> TypedHandler for TypedFn<A, F>
where
    A: FromArgs + 'static,
    R: serde::Serialize + 'static,
    E: IntoFault + 'static,
    F: Fn(A) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, E>> + Send + 'static,
{
    fn start(
        &self,
        ctx: &Arc<CallContext>,
        args: &mut CallReader<'_>,
        reply: ReplyMode,
    ) -> Result<ReplyFuture, ArgError> {
        let a = A::read_args(args)?;
        let fut = (self.f)(a);
        let format = ctx.dialect.reply;
        let name = self.name.clone();
        let reply_size = self.reply_size.clone();
        Ok(Box::pin(ctx.clone().scope(async move {
            match fut.await {
                Ok(r) => {
                    let hint = reply_size.load(Ordering::Relaxed);
                    let encoded = reply.encode(format, &r, hint);
                    if let Ok(e) = &encoded {
                        let next = reply_hint(e.body.len());
                        if next != hint {
                            reply_size.store(next, Ordering::Relaxed);
                        }
                    }
                    encoded.map_err(|e| {
                        let message = format!("{name}: the reply cannot be encoded: {e}");
                        fault::service_exception("java.lang.IllegalStateException", &message)
                    })
                }
                Err(e) => Err(e.into_fault()),
            }
        })))
    }
}

#[derive(Clone)]
enum Kind {
    /// Arguments and result as [`Value`]s.
    Values(Arc<dyn Handler>),
    /// Arguments and result straight between the wire and serde types.
    Typed(Arc<dyn TypedHandler>),
}

/// One method of a service: its name, the Hessian names of its parameter types, its handler.
#[derive(Clone)]
pub struct Method {
    name: String,
    params: Vec<String>,
    kind: Kind,
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

/// What a call turned into once its method was found and its arguments decoded.
enum Started {
    Typed(ReplyFuture),
    Values(HandlerFuture),
    Ready(Value),
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

pub use hessian::serde::mangle::mangle_java_class;

/// A service: a set of methods plus the class names `_hessian_getAttribute` reports.
#[derive(Clone, Default)]
pub struct Service {
    // (keyed multiply-rotate hashing: a name is looked up per call, SipHash costs more than it
    // buys for a server's own method names)
    methods: HashMap<String, Method, KeyedHash>,
    /// Plain names registered for more than one argument count: a Hessian 1 or Burlap call of
    /// such a name (whose argument count the wire does not say) is counted before dispatch.
    overloaded: HashSet<String>,
    /// The methods registered under `name__N`, by name and N.
    by_arity: HashMap<String, Vec<(usize, Method)>, KeyedHash>,
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
        // `by_arity[method]` holds what `methods["{method}__{argc}"]` holds, without building
        // the key for every call
        let by_arity = self.by_arity.get(method).and_then(|v| v.iter().find(|(n, _)| *n == argc));
        by_arity.map(|(_, m)| m).or_else(|| self.methods.get(method))
    }

    /// All registered names (plain, `__N` and mangled), sorted.
    pub fn method_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.methods.keys().map(String::as_str).collect();
        v.sort_unstable();
        v
    }

    /// Dispatches a decoded call and returns the reply (a value or a fault). Faults follow
    /// `HessianSkeleton`: `NoSuchMethodException` for unknown names, `NoSuchMethod` for an
    /// argument count mismatch, and the handler's own fault otherwise. A typed method gets the
    /// arguments re-encoded as Hessian 2 and its reply decoded into a [`Value`]; servers use
    /// [`respond`](Self::respond), which never builds values for typed methods.
    pub async fn dispatch(&self, call: Call, dialect: Dialect) -> Result<Value, Fault> {
        let argc = call.args.len();
        let Some(method) = self.lookup(&call.method, argc) else {
            if call.method == GET_ATTRIBUTE || call.method == BURLAP_GET_ATTRIBUTE {
                return Ok(self.get_attribute(&call.args));
            }
            return Err(fault::no_such_method(&call.method));
        };
        check_arity(method, argc)?;
        let ctx = CallContext::of_request(call.method, call.headers, dialect, RequestInfo::default());
        match &method.kind {
            Kind::Values(h) => {
                let current = Arc::new(ctx.clone());
                current.scope(h.clone().call(ctx, call.args)).await
            }
            Kind::Typed(_) => {
                // a typed method reads bytes: the values as the Hessian 2 call they stand for,
                // answered by the same path a server takes
                let protocol_fault = |e: hessian::Error| Fault::new(PROTOCOL_EXCEPTION, e.to_string());
                let mut enc = hessian::h2::Encoder::new(Vec::new());
                hessian::h2::message::write_call(&mut enc, &ctx.method, &call.args).map_err(protocol_fault)?;
                let body = enc.finish().map_err(protocol_fault)?;
                let as_h2 = Dialect { call: Format::Hessian2, reply: dialect.reply };
                let reply = self.respond(&body, as_h2, Limits::default()).await;
                protocol::decode_reply(dialect.reply, &reply, Limits::default()).map_err(protocol_fault)?
            }
        }
    }

    /// Answers one call given as the bytes of a request body in `dialect.call`, and returns the
    /// reply body in `dialect.reply` (a value, or a fault as `HessianSkeleton` writes it).
    ///
    /// The method is picked from the call's header before any argument is decoded; a typed
    /// method's arguments are decoded straight into its types (one reference space for all of
    /// them) and its result is encoded straight into the reply. The method runs only once all
    /// its arguments decoded and the call ended where it should.
    ///
    /// Each call is a `tracing` span named `hessian.call` (level INFO, target `hessian_rpc`)
    /// with the fields `method`, `protocol`, `request_bytes`, `reply_bytes`, `duration_us` and,
    /// for a fault, `fault` (its code).
    pub async fn respond(&self, body: &[u8], dialect: Dialect, limits: Limits) -> Vec<u8> {
        self.answer(body, dialect, limits, None, RequestInfo::default()).await.body
    }

    /// [`respond`](Self::respond) on a server that speaks the type negotiation extension:
    /// referring calls are decoded with their map (or answered `UnknownTypeMap` before
    /// anything is decoded), and the maps of plain calls and replies are learned when the call
    /// offered the extension.
    pub(crate) async fn answer(
        &self,
        body: &[u8],
        dialect: Dialect,
        limits: Limits,
        neg: Option<Negotiating<'_>>,
        request: RequestInfo,
    ) -> Answer {
        let mode = match &neg {
            Some(n) if dialect.reply == Format::Hessian2 => match &n.reply_map {
                Some(m) => ReplyMode::Refer(m.clone()),
                None if n.learn => ReplyMode::Learn,
                None => ReplyMode::Plain,
            },
            _ => ReplyMode::Plain,
        };
        let mut answer = Answer::default();
        let span = tracing::info_span!(
            target: "hessian_rpc",
            "hessian.call",
            method = tracing::field::Empty,
            protocol = %dialect,
            request_bytes = body.len(),
            reply_bytes = tracing::field::Empty,
            duration_us = tracing::field::Empty,
            fault = tracing::field::Empty,
        );
        let t0 = std::time::Instant::now();
        let reply = {
            let _enter = span.enter();
            self.start(body, dialect, limits, &span, neg.as_ref(), &mode, &mut answer, request)
        };
        let reply = match reply {
            Ok(Started::Typed(fut)) => tracing::Instrument::instrument(fut, span.clone()).await.map_err(method_fault),
            Ok(Started::Values(fut)) => match tracing::Instrument::instrument(fut, span.clone()).await {
                Ok(v) => encode_value_reply(dialect.reply, v, &mode),
                Err(f) => Err(method_fault(f)),
            },
            Ok(Started::Ready(v)) => encode_value_reply(dialect.reply, v, &mode),
            Err(f) => Err(f),
        };
        answer.body = match reply {
            Ok(encoded) => {
                if let Some(n) = &neg {
                    match mode {
                        ReplyMode::Learn => answer.reply_map = n.cache.learn(n.scope, &encoded.classes, true),
                        ReplyMode::Refer(_) => crate::negotiation::count(&n.cache.referring_replies),
                        ReplyMode::Plain => {}
                    }
                }
                encoded.body
            }
            Err(f) => {
                span.record("fault", f.code.as_str());
                encode_fault(dialect.reply, f)
            }
        };
        span.record("reply_bytes", answer.body.len());
        span.record("duration_us", t0.elapsed().as_micros() as u64);
        answer
    }

    /// Reads the call's header, finds the method, decodes the arguments and returns the
    /// method's future, not yet started.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &self,
        body: &[u8],
        dialect: Dialect,
        limits: Limits,
        span: &tracing::Span,
        neg: Option<&Negotiating<'_>>,
        mode: &ReplyMode,
        answer: &mut Answer,
        request: RequestInfo,
    ) -> Result<Started, Fault> {
        let malformed =
            |e: hessian::Error| Fault::new(PROTOCOL_EXCEPTION, format!("malformed {} call: {e}", dialect.call));
        let format = dialect.call;
        // a referring call reaching a server without the extension gets the same refusal as an
        // unknown map (`docs/negotiation.md` 6.1): it has run nothing either
        let reader = match neg {
            Some(n) if format == Format::Hessian2 => {
                // the call's map is often the reply map, just looked up in the same scope
                CallReader::negotiated(format, body, limits, |d| match &n.reply_map {
                    Some(m) if m.digest() == *d => Some(m.clone()),
                    _ => n.cache.get(n.scope, d),
                })
            }
            None if format == Format::Hessian2 => CallReader::negotiated(format, body, limits, |_| None),
            _ => CallReader::new(format, body, limits),
        };
        let mut reader = match reader {
            Ok(r) => r,
            Err(e) => {
                if let ErrorKind::UnknownTypeMap(d) = e.kind() {
                    if let Some(n) = neg {
                        crate::negotiation::count(&n.cache.unknown_type_map);
                        answer.unknown = Some(*d);
                    }
                    return Err(crate::negotiation::refusal(d));
                }
                return Err(malformed(e));
            }
        };
        // a plain Hessian 2 call that offered the extension establishes the map of its classes
        let learn_request = match neg {
            Some(n) if reader.type_map().is_some() => {
                crate::negotiation::count(&n.cache.referring_calls);
                None
            }
            Some(n) if n.learn && format == Format::Hessian2 => {
                crate::negotiation::count(&n.cache.plain_calls);
                Some((n.cache, n.scope))
            }
            _ => None,
        };
        span.record("method", reader.method());
        let argc = match reader.arg_count() {
            Some(n) => Some(n),
            None if self.overloaded.contains(reader.method()) => {
                Some(count_args(format, body, limits).map_err(malformed)?)
            }
            None => None,
        };
        let method = match argc {
            Some(n) => self.lookup(reader.method(), n),
            None => self.methods.get(reader.method()),
        };
        let Some(method) = method else {
            let name = reader.method().to_owned();
            if name == GET_ATTRIBUTE || name == BURLAP_GET_ATTRIBUTE {
                let (args, _) = read_value_args(dialect.call, reader, false).map_err(malformed)?;
                return Ok(Started::Ready(self.get_attribute(&args)));
            }
            return Err(fault::no_such_method(&name));
        };
        if let Some(n) = argc {
            check_arity(method, n)?;
        }
        let headers = reader.take_headers();
        let headers = headers.into_iter().map(|(k, v)| (k, protocol::h2_shape(dialect.call, v))).collect();
        let ctx = Arc::new(CallContext::of_request(reader.method().to_owned(), headers, dialect, request));
        match &method.kind {
            Kind::Values(h) => {
                let (args, classes) =
                    read_value_args(dialect.call, reader, learn_request.is_some()).map_err(malformed)?;
                check_arity(method, args.len())?;
                if let Some((cache, scope)) = learn_request {
                    answer.request_map = cache.learn(scope, &classes, false);
                }
                let fut = h.clone().call(CallContext::clone(&ctx), args);
                Ok(Started::Values(Box::pin(ctx.scope(fut))))
            }
            Kind::Typed(h) => {
                // the method's synchronous part runs here, its future later: both see the context
                let fut = match ctx.sync_scope(|| h.start(&ctx, &mut reader, mode.clone())) {
                    Ok(fut) => fut,
                    // fewer arguments than the method has (Hessian 1 and Burlap do not say)
                    Err(e) if reader.args_read() == e.index && reader.at_end().unwrap_or(false) => {
                        return Err(arity_fault(method, e.index));
                    }
                    Err(e) => {
                        let message = format!(
                            "{}: argument {} of {}: {}",
                            method.name,
                            e.index + 1,
                            method.params.len(),
                            e.error
                        );
                        return Err(fault::service_exception("java.lang.IllegalArgumentException", &message));
                    }
                };
                if !reader.at_end().map_err(malformed)? {
                    // more arguments than the method has: count them for the fault's message
                    let n = count_args(format, body, limits).map_err(malformed)?;
                    return Err(arity_fault(method, n));
                }
                match learn_request {
                    Some((cache, scope)) => {
                        let classes = reader.finish_with_classes().map_err(malformed)?;
                        answer.request_map = cache.learn(scope, &classes, false);
                    }
                    None => reader.finish().map_err(malformed)?,
                }
                Ok(Started::Typed(fut))
            }
        }
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

fn arity_fault(method: &Method, argc: usize) -> Fault {
    let message = format!("method {method:?} argument length mismatch, received length={argc}");
    Fault::new(NO_SUCH_METHOD, fault::escape_message(&message))
}

fn check_arity(method: &Method, argc: usize) -> Result<(), Fault> {
    if method.params.len() == argc {
        Ok(())
    } else {
        Err(arity_fault(method, argc))
    }
}

/// Reads the remaining arguments as values in the Hessian 2 shape, and the end of the call;
/// with `classes`, also the class definitions the call defined.
fn read_value_args(
    protocol: Format,
    mut reader: CallReader<'_>,
    classes: bool,
) -> hessian::Result<(Vec<Value>, Vec<Arc<ClassDef>>)> {
    let mut args = Vec::new();
    while !reader.at_end()? {
        args.push(protocol::h2_shape(protocol, reader.value_arg()?));
    }
    if classes {
        let classes = reader.finish_with_classes()?;
        return Ok((args, classes));
    }
    reader.finish()?;
    Ok((args, Vec::new()))
}

/// Counts the arguments of a call whose format does not say how many there are.
fn count_args(format: hessian::Format, body: &[u8], limits: Limits) -> hessian::Result<usize> {
    let mut reader = CallReader::new(format, body, limits)?;
    while !reader.at_end()? {
        reader.value_arg()?;
    }
    Ok(reader.args_read())
}

fn encode_value_reply(protocol: Format, v: Value, mode: &ReplyMode) -> Result<Encoded, Fault> {
    let failed = |e: hessian::Error| Fault::new(PROTOCOL_EXCEPTION, format!("could not encode the reply: {e}"));
    match mode {
        ReplyMode::Plain => {
            let body = protocol::encode_reply(protocol, &Ok(v)).map_err(failed)?;
            Ok(Encoded { body, classes: Vec::new() })
        }
        // `Value` serializes losslessly through the codec's serializer, whose class table the
        // negotiation reads and seeds
        _ => mode.encode(protocol, &v, 0).map_err(failed),
    }
}

/// Encodes a fault; one whose detail cannot be encoded is sent without it.
/// A method's own fault as it goes on the wire: the code `UnknownTypeMap` is reserved for the
/// refusal of a referring call, which proves that nothing ran (`docs/negotiation.md` 6.1), so a
/// method that ran cannot send it; it becomes a `ServiceException` with the same message.
fn method_fault(mut f: Fault) -> Fault {
    if f.code == UNKNOWN_TYPE_MAP {
        f.code = fault::SERVICE_EXCEPTION.to_owned();
    }
    f
}

fn encode_fault(protocol: Format, f: Fault) -> Vec<u8> {
    match protocol::encode_reply(protocol, &Err(f)) {
        Ok(b) => b,
        Err(e) => {
            let plain = Fault::new(PROTOCOL_EXCEPTION, format!("could not encode the fault: {e}"));
            protocol::encode_reply(protocol, &Err(plain)).unwrap_or_default()
        }
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

    /// Registers a typed async method: the arguments are decoded from the request body into the
    /// tuple `A` of `Deserialize` types, and the result `R` is encoded with serde straight into
    /// the reply body, in every protocol. The parameter types for Caucho's mangled name come from
    /// `A` ([`hessian::serde::mangled_type_name`]). An argument that does not decode as its type
    /// gets an `IllegalArgumentException` fault naming the method, the argument and the offset
    /// in the request body; an error `E` becomes the fault [`IntoFault`] makes of it.
    ///
    /// ```
    /// use hessian_rpc::{Service, ServiceError};
    /// let service = Service::builder()
    ///     .typed("add", |(a, b): (i32, i32)| async move {
    ///         a.checked_add(b).ok_or_else(|| ServiceError::illegal_argument("overflow"))
    ///     })
    ///     .build();
    /// assert_eq!(service.method_names(), ["add", "add__2", "add_int_int"]);
    /// ```
    pub fn typed<A, R, E, F, Fut>(self, name: &str, f: F) -> Self
    where
        A: FromArgs + 'static,
        R: serde::Serialize + 'static,
        E: IntoFault + 'static,
        F: Fn(A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, E>> + Send + 'static,
    {
        let params = A::mangled_params();
        self.typed_with_params(name, params, f)
    }

    /// [`typed`](Self::typed) with the parameter types for Caucho's mangled name given (for
    /// Java types the serde mapping does not tell, such as `[int` for an `int[]`).
    pub fn typed_with_params<A, R, E, F, Fut>(self, name: &str, params: Vec<String>, f: F) -> Self
    where
        A: FromArgs + 'static,
        R: serde::Serialize + 'static,
        E: IntoFault + 'static,
        F: Fn(A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, E>> + Send + 'static,
    {
        let handler = TypedFn { name: name.into(), f, reply_size: Arc::default(), _args: PhantomData };
        self.register(name, params, Kind::Typed(Arc::new(handler)))
    }

    /// Registers a typed synchronous method (see [`typed`](Self::typed); run inline on the
    /// connection's task, so keep it short), with the parameter types for the mangled name
    /// given.
    pub fn typed_method<A, R, F>(self, name: &str, params: &[&str], f: F) -> Self
    where
        A: FromArgs + Send + 'static,
        R: serde::Serialize + 'static,
        F: Fn(A) -> Result<R, Fault> + Send + Sync + 'static,
    {
        let f = Arc::new(f);
        let params = params.iter().map(|p| (*p).to_owned()).collect();
        self.typed_with_params(name, params, move |a: A| {
            let f = f.clone();
            async move { f(a) }
        })
    }

    /// Registers any [`Handler`].
    pub fn handler(self, name: &str, params: &[&str], handler: impl Handler) -> Self {
        let params = params.iter().map(|p| (*p).to_owned()).collect();
        self.register(name, params, Kind::Values(Arc::new(handler)))
    }

    fn register(mut self, name: &str, params: Vec<String>, kind: Kind) -> Self {
        let m = Method { name: name.to_owned(), params, kind };
        let methods = &mut self.service.methods;
        if methods.contains_key(&format!("{name}__{}", m.params.len())) {
            // the same name and arity again: as in Java, the first one keeps the name
        } else if methods.keys().any(|k| k.strip_prefix(name).is_some_and(|rest| rest.starts_with("__"))) {
            self.service.overloaded.insert(name.to_owned());
        }
        methods.entry(name.to_owned()).or_insert_with(|| m.clone());
        methods.insert(format!("{name}__{}", m.params.len()), m.clone());
        let arities = self.service.by_arity.entry(name.to_owned()).or_default();
        arities.retain(|(n, _)| *n != m.params.len());
        arities.push((m.params.len(), m.clone()));
        methods.insert(m.mangled_name(), m);
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
    async fn dispatch_of_values_reaches_typed_methods() {
        let s = Service::builder().typed("add", |(a, b): (i32, i32)| async move { Ok::<_, Fault>(a + b) }).build();
        for d in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::BURLAP] {
            let call = Call::new("add", vec![Value::Int(2), Value::Int(3)]);
            assert_eq!(s.dispatch(call, d).await, Ok(Value::Int(5)), "{d}");
            let f = s.dispatch(Call::new("add", vec![Value::Int(2)]), d).await.unwrap_err();
            assert_eq!(f.code, "NoSuchMethod", "{d}");
            let f = s.dispatch(Call::new("add", vec![Value::Int(2), Value::string("x")]), d).await.unwrap_err();
            assert!(f.message().is_some_and(|m| m.starts_with("add: argument 2 of 2: ")), "{d}: {f}");
        }
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
        assert_eq!(f.message(), Some("The service has no method named: nope"));
        let f = s.dispatch(call("add_int", vec![]), d).await.unwrap_err();
        assert_eq!(f.code, "NoSuchMethod");
    }
}
