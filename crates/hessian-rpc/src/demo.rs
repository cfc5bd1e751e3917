//! The demo services of the project's Serving conventions: the W1/W2 benchmark service served at
//! `/bench` (`getItems(int)`, `exchange(Order)`) and Caucho's `TestHessian2` conformance service
//! at `/test2`.

use crate::fault::ServiceError;
use crate::server::HessianServer;
use crate::service::Service;
use hessian::Value;
use hessian_testkit::catalogue;
use hessian_testkit::structs::{self, w2, Item};
use std::sync::Arc;

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
        _ => a == b,
    }
}

/// The W1/W2 benchmark service, declared once with [`service`](crate::service): the server
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
}

impl Default for BenchImpl {
    fn default() -> Self {
        BenchImpl { request: w2::request(), reply: Arc::new(w2::reply()) }
    }
}

impl Bench for BenchImpl {
    async fn get_items(&self, n: i32) -> Result<Vec<Item>, ServiceError> {
        match usize::try_from(n) {
            Ok(n) if n as i64 <= MAX_ITEMS => Ok(structs::items(n)),
            _ => Err(ServiceError::illegal_argument(format!("getItems: n must be an int in 0..={MAX_ITEMS}, got {n}"))),
        }
    }

    async fn exchange(&self, order: w2::Order) -> Result<Arc<w2::Order>, ServiceError> {
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

/// The demo server of the Serving conventions: `/bench` and `/test2`.
pub fn demo_server() -> HessianServer {
    HessianServer::builder().mount("/bench", bench_service()).mount("/test2", test2_service()).build()
}

/// Java interface name of the conformance service.
pub const TEST2_API: &str = "RpcTestHessian2";

/// Caucho's `TestHessian2` conformance service: `methodNull`, every `replyX` answering the
/// catalogue value, and every `argX` answering `true` when its argument equals the value of
/// `replyX` (and otherwise a string describing what arrived, as Caucho's debug answer does).
pub fn test2_service() -> Service {
    let mut b = Service::builder().api_class(TEST2_API).sync_method("methodNull", &[], |_| Ok(Value::Null));
    for case in catalogue::test_hessian2_replies() {
        let value = case.value;
        b = b.sync_method(&case.name, &[], move |_| Ok(value.clone()));
    }
    for &name in catalogue::ARG_METHODS {
        let Some(expected) = catalogue::arg_expectation(name) else { continue };
        b = b.sync_method(name, &["Object"], move |args| {
            Ok(if catalogue::same_value(&args[0], &expected) {
                Value::Bool(true)
            } else {
                Value::String(format!("{name}: expected {expected}, got {}", args[0]))
            })
        });
    }
    b.build()
}
