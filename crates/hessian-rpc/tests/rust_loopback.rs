//! Rust client against the Rust server over loopback: W1/W2, faults, overloads, the meta call.

use hessian::Value;
use hessian_demo::{bench_service, demo_server, same_graph};
use hessian_rpc::{BlockingClient, Client, Dialect, Error, HessianServer, Service};
use hessian_testkit::workloads::{items, W2Classes, W1_SIZES};

#[tokio::test]
async fn w1_and_w2_round_trip_in_every_dialect() {
    let server = demo_server().bind("127.0.0.1:0").await.unwrap();
    for dialect in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP] {
        let client = Client::builder().dialect(dialect).build();
        let proxy = client.proxy(&server.url("/bench")).unwrap();
        for n in W1_SIZES {
            let got = proxy.call("getItems", vec![Value::Int(n as i32)]).await.unwrap();
            assert!(same_graph(&got, &items(n)), "{dialect}: getItems({n})");
        }
        let w2 = W2Classes::default();
        let err = proxy.call("exchange", vec![w2.reply()]).await.unwrap_err();
        let fault = err.fault().unwrap_or_else(|| panic!("{dialect}: {err}"));
        assert_eq!(fault.exception_class(), Some("java.lang.IllegalArgumentException"), "{dialect}");
        assert!(same_graph(&proxy.call("exchange", vec![w2.request()]).await.unwrap(), &w2.reply()), "{dialect}");
        assert_eq!(proxy.get_attribute("java.api.class").await.unwrap(), Value::string("RpcBenchService"));
    }
    // Hessian 2 both ways keeps every value exactly
    let proxy = Client::new().proxy(&server.url("/bench")).unwrap();
    assert_eq!(proxy.call("getItems", vec![Value::Int(50)]).await.unwrap(), items(50));
    assert_eq!(
        proxy.call("exchange", vec![W2Classes::default().request()]).await.unwrap(),
        W2Classes::default().reply()
    );
    server.shutdown().await;
}

#[tokio::test]
async fn faults_carry_java_exception_class() {
    let server = demo_server().bind("127.0.0.1:0").await.unwrap();
    let proxy = Client::new().proxy(&server.url("/bench")).unwrap();
    let err = proxy.call("getItems", vec![Value::Int(-1)]).await.unwrap_err();
    let f = err.fault().expect("fault");
    assert_eq!(f.code(), "ServiceException");
    assert_eq!(f.exception_class(), Some("java.lang.IllegalArgumentException"));
    assert!(f.message().is_some_and(|m| m.contains("getItems")), "{f}");
    let err = proxy.call("nope", vec![]).await.unwrap_err();
    assert_eq!(err.fault().unwrap().code(), "NoSuchMethodException");
    let err = proxy.call("getItems", vec![]).await.unwrap_err();
    assert_eq!(err.fault().unwrap().code(), "NoSuchMethod");
    assert_eq!(proxy.get_attribute("java.api.class").await.unwrap(), Value::string("RpcBenchService"));
    assert_eq!(proxy.get_attribute("java.home.class").await.unwrap(), Value::Null);
    let err = Client::new().proxy(&server.url("/elsewhere")).unwrap().call("x", vec![]).await.unwrap_err();
    assert!(matches!(err, Error::Http { status, .. } if status == 404), "{err}");
    server.shutdown().await;
}

#[test]
fn blocking_client_calls_a_server() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(HessianServer::single(bench_service()).bind("127.0.0.1:0")).unwrap();
    let client = BlockingClient::with_builder(Client::builder().dialect(Dialect::HESSIAN2));
    let proxy = client.proxy(&server.url("/any/path")).unwrap();
    assert_eq!(proxy.call("getItems", vec![Value::Int(3)]).unwrap(), items(3));
    rt.block_on(server.shutdown());
}

#[tokio::test]
async fn timeout_is_reported() {
    let slow = Service::builder()
        .method("sleep", &[], |_, _| async {
            tokio::time::sleep(std::time::Duration::from_secs(5)).await;
            Ok(Value::Null)
        })
        .build();
    let server = HessianServer::single(slow).bind("127.0.0.1:0").await.unwrap();
    let client = Client::builder().timeout(std::time::Duration::from_millis(100)).build();
    let err = client.proxy(&server.url("/")).unwrap().call("sleep", vec![]).await.unwrap_err();
    assert!(matches!(err, Error::Timeout(_)), "{err}");
}

#[tokio::test]
async fn call_headers_reach_the_handler_in_hessian1_and_burlap() {
    let svc = Service::builder()
        .method("whoami", &[], |ctx, _| async move { Ok(ctx.header("user").cloned().unwrap_or(Value::Null)) })
        .build();
    let server = HessianServer::single(svc).bind("127.0.0.1:0").await.unwrap();
    for dialect in [Dialect::HESSIAN1, Dialect::HYBRID, Dialect::BURLAP] {
        let proxy = Client::builder().dialect(dialect).build().proxy(&server.url("/")).unwrap();
        let mut call = hessian::Call::new("whoami", vec![]);
        call.headers.push(("user".into(), Value::string("ada")));
        assert_eq!(proxy.call_with(call).await.unwrap(), Value::string("ada"), "{dialect}");
    }
    server.shutdown().await;
}
