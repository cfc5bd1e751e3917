//! Typed calls with serde structs (the W1/W2 structs of the test kit) in every dialect, a typed
//! server method, the blocking typed call and the `client_stub!` macro; also against Java.

mod common;

use hessian_rpc::{client_stub, BlockingClient, Client, Dialect, HessianServer, Service};
use hessian_testkit::structs::{self, w2, Item};

client_stub! {
    /// Typed client of the W1/W2 service.
    pub struct BenchClient {
        /// W1.
        fn get_items("getItems", n: i32) -> Vec<Item>;
        /// W2.
        fn exchange("exchange", order: w2::Order) -> w2::Order;
    }
}

#[tokio::test]
async fn typed_calls_in_every_dialect() {
    let adder = Service::builder()
        .typed_method("add", &["int", "int"], |(a, b): (i32, i32)| Ok(a + b))
        .typed_method("greet", &["string"], |(name,): (String,)| Ok(format!("hello, {name}")))
        .build();
    let server = HessianServer::builder()
        .mount("/bench", hessian_demo::bench_service())
        .mount("/adder", adder)
        .build()
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    for dialect in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP] {
        let client = Client::builder().dialect(dialect).build();
        let bench = BenchClient::new(client.proxy(&server.url("/bench")).unwrap());
        assert_eq!(bench.get_items(100).await.unwrap(), structs::items(100), "{dialect}");
        assert_eq!(bench.exchange(w2::request()).await.unwrap(), w2::reply(), "{dialect}");
        let err = bench.exchange(w2::reply()).await.unwrap_err();
        assert_eq!(err.fault().and_then(|f| f.exception_class()), Some("java.lang.IllegalArgumentException"));
        let adder = client.proxy(&server.url("/adder")).unwrap();
        assert_eq!(adder.call_typed::<_, i32>("add", (2, 3)).await.unwrap(), 5, "{dialect}");
        assert_eq!(adder.call_typed::<_, String>("greet", ("Ada",)).await.unwrap(), "hello, Ada");
        let err = adder.call_typed::<_, i32>("add", ("x", 3)).await.unwrap_err();
        assert_eq!(err.fault().map(|f| f.code()), Some("ServiceException"), "{dialect}: {err}");
    }
    server.shutdown().await;
}

#[test]
fn blocking_typed_call_against_java() {
    let Some(java) = hessian_testkit::java::java() else { return };
    let server = common::JavaServer::start(&java);
    let client = BlockingClient::with_builder(Client::builder().dialect(Dialect::HYBRID));
    let proxy = client.proxy(&server.url("/bench")).unwrap();
    let items: Vec<Item> = proxy.call_typed("getItems", (250,)).unwrap();
    assert_eq!(items, structs::items(250));
    let order: w2::Order = proxy.call_typed("exchange", (w2::request(),)).unwrap();
    assert_eq!(order, w2::reply());
}

/// A call's arguments share one reference space: Java's proxy writes an object passed twice
/// (`same(m, m)`) as the object and then `Q 0` (or `R 0` in Hessian 1), and a later argument's
/// own references count the lists, maps and objects of the arguments before it. Typed handlers
/// decode the arguments together, so both resolve.
#[tokio::test]
async fn typed_arguments_share_one_reference_space() {
    let service = Service::builder()
        .typed_method("same", &["Money", "Money"], |(a, b): (w2::Money, w2::Money)| Ok(a == b))
        .typed_method("second", &["Money", "List"], |(_, l): (w2::Money, Vec<w2::Money>)| Ok(l))
        .build();
    let server = HessianServer::builder().mount("/refs", service).build().bind("127.0.0.1:0").await.unwrap();
    let money = || w2::Money { cents: 5000, currency: "EUR".into() };
    let money_value = hessian::serde::to_value(&money()).unwrap();
    for dialect in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP] {
        let proxy = Client::builder().dialect(dialect).build().proxy(&server.url("/refs")).unwrap();
        // same(m, m): the second argument is a reference to the first
        let v = proxy.call("same", vec![money_value.clone(), hessian::Value::Ref(0)]).await.unwrap();
        assert_eq!(v, hessian::Value::Bool(true), "{dialect}");
        // second(m, [n, n]): inside the second argument, the list is reference 1 and its
        // element reference 2, so the repeat is `Q 2`
        let list = hessian::Value::list(vec![money_value.clone(), hessian::Value::Ref(2)]);
        let v = proxy.call("second", vec![money_value.clone(), list]).await.unwrap();
        let back: Vec<w2::Money> = hessian::serde::from_value(v).unwrap();
        assert_eq!(back, [money(), money()], "{dialect}");
    }
    server.shutdown().await;
}

/// Regression: `call_typed` once turned each argument into a `Value` from its own message and
/// copied their references verbatim into one call, so a reference inside a later argument (a
/// `Shared` value repeated in a `Vec`) pointed at the wrong value once an earlier argument held an
/// object. The arguments are one message now, against the Rust server and Java's skeleton.
#[test]
fn shared_values_in_a_later_argument_keep_their_references() {
    use hessian::serde::Shared;
    use std::sync::Arc;
    let rt = tokio::runtime::Runtime::new().unwrap();
    let refs = Service::builder()
        .typed_method("same", &["Money", "Money"], |(a, b): (w2::Money, w2::Money)| Ok(a == b))
        .typed_method("second", &["Money", "List"], |(_, l): (w2::Money, Vec<w2::Money>)| Ok(l))
        .build();
    let rust = rt.block_on(HessianServer::builder().mount("/refs", refs).build().bind("127.0.0.1:0")).unwrap();
    let java = hessian_testkit::java::java().map(|j| common::JavaServer::start(&j));
    let first = w2::Money { cents: 1, currency: "EUR".into() };
    let shared = Shared(Arc::new(w2::Money { cents: 2, currency: "GBP".into() }));
    let mut urls = vec![rust.url("/refs")];
    urls.extend(java.as_ref().map(|j| j.url("/refs")));
    for url in &urls {
        for dialect in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP] {
            let client = BlockingClient::with_builder(Client::builder().dialect(dialect));
            let proxy = client.proxy(url).unwrap();
            let back: Vec<w2::Money> =
                proxy.call_typed("second", (first.clone(), vec![shared.clone(), shared.clone()])).unwrap();
            assert_eq!(back, [(*shared.0).clone(), (*shared.0).clone()], "{url} {dialect}");
            let same: bool = proxy.call_typed("same", (shared.clone(), shared.clone())).unwrap();
            assert!(same, "{url} {dialect}");
        }
    }
    rt.block_on(rust.shutdown());
}
