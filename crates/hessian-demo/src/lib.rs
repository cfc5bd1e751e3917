//! The demo services of the project's Serving conventions (`docs/workloads.md`), what
//! `hessian serve-demo` serves and the benchmarks call: the W1/W2 benchmark service at `/bench`
//! (`getItems(int)`, `exchange(Order)`), Caucho's `TestHessian2` conformance service at
//! `/test2`, and an echo service at `/echo` (`echo(Object)`, for benchmarks that generate their
//! own types). Every method run is counted in [`Executions`], so that tests can check that each
//! call ran exactly once.
//!
//! The data they serve come from `hessian-workloads`. It depends on the codec, the RPC crate and
//! those data sets only, so the `hessian` binary links no test support.

#![deny(missing_docs)]

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

use hessian::Value;
use hessian_rpc::{HessianServer, HessianServerBuilder, Service, ServiceError};
use hessian_workloads::catalogue;
use hessian_workloads::structs::{self, w2, Item};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// How many times each demo method ran (counted when the method's body starts, so a call that
/// was refused before dispatch, such as an `UnknownTypeMap` answer, is not counted). One
/// instance is shared by the services of a demo server ([`demo_builder`]).
#[derive(Debug, Default)]
pub struct Executions {
    get_items: AtomicU64,
    exchange: AtomicU64,
    echo: AtomicU64,
    test2: AtomicU64,
}

impl Executions {
    fn count(c: &AtomicU64) {
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// Runs of `/bench` `getItems`.
    pub fn get_items(&self) -> u64 {
        self.get_items.load(Ordering::Relaxed)
    }

    /// Runs of `/bench` `exchange`.
    pub fn exchange(&self) -> u64 {
        self.exchange.load(Ordering::Relaxed)
    }

    /// Runs of `/echo` `echo`.
    pub fn echo(&self) -> u64 {
        self.echo.load(Ordering::Relaxed)
    }

    /// Runs of any `/test2` method.
    pub fn test2(&self) -> u64 {
        self.test2.load(Ordering::Relaxed)
    }

    /// Runs of every method together.
    pub fn total(&self) -> u64 {
        self.get_items() + self.exchange() + self.echo() + self.test2()
    }
}

/// Java interface name of the benchmark service (reported by `_hessian_getAttribute`).
pub const BENCH_API: &str = "RpcBenchService";

/// Largest list `getItems` builds.
pub const MAX_ITEMS: i64 = 1_000_000;

/// Compares two value graphs for the W2 check, ignoring what the protocols may legitimately
/// change: list type names and the fixed/variable-length flag.
pub fn same_graph(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::List(x), Value::List(y)) => {
            x.items.len() == y.items.len() && x.items.iter().zip(&y.items).all(|(a, b)| same_graph(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.class.name == y.class.name
                && x.class.fields.len() == y.class.fields.len()
                && x.class.fields.iter().zip(&x.fields).all(|(name, v)| y.get(name).is_some_and(|w| same_graph(v, w)))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.entries.len() == y.entries.len()
                && x.entries.iter().zip(&y.entries).all(|((k1, v1), (k2, v2))| same_graph(k1, k2) && same_graph(v1, v2))
        }
        _ => a.same(b),
    }
}

/// The W1/W2 benchmark service, declared once with [`hessian_rpc::service`](macro@hessian_rpc::service): the server
/// below and the typed clients `BenchClient` and `BenchBlockingClient` come from it. Its Java
/// twin is `interop/java/src/RpcBenchService.java`.
#[hessian_rpc::service(api = "RpcBenchService")]
pub trait Bench {
    /// W1: the list of `n` items (`n` in `0..=1000000`).
    async fn get_items(&self, n: i32) -> Result<Vec<Item>, ServiceError>;
    /// W2: answers the W2 reply graph when given the W2 request graph (an `Arc`, so the server
    /// answers the one graph it keeps without copying it, as Java's implementation does).
    async fn exchange(&self, order: w2::Order) -> Result<Arc<w2::Order>, ServiceError>;
}

/// The implementation of [`Bench`] the demo server runs (as Java's `RpcBenchServiceImpl`).
#[derive(Debug)]
pub struct BenchImpl {
    request: w2::Order,
    reply: Arc<w2::Order>,
    executions: Arc<Executions>,
}

impl Default for BenchImpl {
    fn default() -> Self {
        BenchImpl::counting(Arc::default())
    }
}

impl BenchImpl {
    /// The service counting its runs in `executions`.
    pub fn counting(executions: Arc<Executions>) -> Self {
        BenchImpl { request: w2::request(), reply: Arc::new(w2::reply()), executions }
    }
}

impl Bench for BenchImpl {
    async fn get_items(&self, n: i32) -> Result<Vec<Item>, ServiceError> {
        Executions::count(&self.executions.get_items);
        match usize::try_from(n) {
            Ok(n) if n as i64 <= MAX_ITEMS => Ok(structs::items(n)),
            _ => Err(ServiceError::illegal_argument(format!("getItems: n must be an int in 0..={MAX_ITEMS}, got {n}"))),
        }
    }

    async fn exchange(&self, order: w2::Order) -> Result<Arc<w2::Order>, ServiceError> {
        Executions::count(&self.executions.exchange);
        if order == self.request {
            Ok(self.reply.clone())
        } else {
            Err(ServiceError::illegal_argument(format!(
                "exchange: the order is not the W2 request (order 1001 of customer 42 with three lines, \
                 see docs/workloads.md); got order {} of customer {} with {} lines",
                order.id,
                order.customer.id,
                order.lines.len()
            )))
        }
    }
}

/// The W1/W2 service as the demo server serves it: `getItems(int n)` answers the W1 list of `n`
/// items; `exchange(Order)` answers the W2 reply graph when given the W2 request graph, and a
/// `java.lang.IllegalArgumentException` fault otherwise.
pub fn bench_service() -> Service {
    BenchImpl::default().into_service()
}

/// Java interface name of the echo service.
pub const ECHO_API: &str = "RpcEchoService";

/// `echo(Object)`: answers its argument as it was decoded (a `Value`), so that a client can send
/// types of its own making and check the reply against what it sent.
pub fn echo_service() -> Service {
    echo_service_counting(Arc::default())
}

fn echo_service_counting(executions: Arc<Executions>) -> Service {
    Service::builder()
        .api_class(ECHO_API)
        .sync_method("echo", &["Object"], move |args| {
            Executions::count(&executions.echo);
            Ok(args.into_iter().next().unwrap_or(Value::Null))
        })
        .build()
}

/// The demo server of the Serving conventions: `/bench`, `/test2` and `/echo`.
pub fn demo_server() -> HessianServer {
    demo_builder(&Arc::default()).build()
}

/// A builder with the demo services mounted (`/bench`, `/test2`, `/echo`), counting every run
/// in `executions`; the caller adds its configuration (e.g. type maps) and builds.
pub fn demo_builder(executions: &Arc<Executions>) -> HessianServerBuilder {
    HessianServer::builder()
        .mount("/bench", BenchImpl::counting(executions.clone()).into_service())
        .mount("/test2", test2_service_counting(executions.clone()))
        .mount("/echo", echo_service_counting(executions.clone()))
}

/// Java interface name of the conformance service.
pub const TEST2_API: &str = "RpcTestHessian2";

/// Caucho's `TestHessian2` conformance service: `methodNull`, every `replyX` answering the
/// catalogue value, and every `argX` answering `true` when its argument equals the value of
/// `replyX` as a Java service sees it ([`catalogue::same_java_value`]: a Hessian 1 typed map is
/// the object of its type) (and otherwise a string describing what arrived, as Caucho's debug answer does).
pub fn test2_service() -> Service {
    test2_service_counting(Arc::default())
}

fn test2_service_counting(executions: Arc<Executions>) -> Service {
    let ex = executions.clone();
    let mut b = Service::builder().api_class(TEST2_API).sync_method("methodNull", &[], move |_| {
        Executions::count(&ex.test2);
        Ok(Value::Null)
    });
    for case in catalogue::test_hessian2_replies() {
        let value = case.value;
        let ex = executions.clone();
        b = b.sync_method(&case.name, &[], move |_| {
            Executions::count(&ex.test2);
            Ok(value.clone())
        });
    }
    for &name in catalogue::ARG_METHODS {
        let Some(expected) = catalogue::arg_expectation(name) else { continue };
        let ex = executions.clone();
        b = b.sync_method(name, &["Object"], move |args| {
            Executions::count(&ex.test2);
            Ok(if catalogue::same_java_value(&args[0], &expected) {
                Value::Bool(true)
            } else {
                Value::String(format!("{name}: expected {expected}, got {}", args[0]))
            })
        });
    }
    b.build()
}
