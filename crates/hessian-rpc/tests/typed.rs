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
        .mount("/bench", hessian_rpc::demo::bench_service())
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
    let client = BlockingClient::new(Client::builder().dialect(Dialect::HYBRID)).unwrap();
    let proxy = client.proxy(&server.url("/bench")).unwrap();
    let items: Vec<Item> = proxy.call_typed("getItems", (250,)).unwrap();
    assert_eq!(items, structs::items(250));
    let order: w2::Order = proxy.call_typed("exchange", (w2::request(),)).unwrap();
    assert_eq!(order, w2::reply());
}
