//! Interop with Caucho hessian 4.0.38 in both directions: Java's `HessianProxyFactory` calling
//! the Rust server, and the Rust client calling Java's `HessianSkeleton` behind
//! `com.sun.net.httpserver`. Skips without Java locally; fails under CI.

mod common;

use common::{java_client, rust_server, JavaServer};
use hessian::Value;
use hessian_rpc::{Client, Dialect};
use hessian_testkit::java::java;
use hessian_testkit::structs;
use hessian_testkit::workloads::{items, W2Classes, W1_SIZES};

/// Java client modes and the dialect the Rust server must detect for each.
const JAVA_MODES: &[(&str, &str)] = &[
    ("h2", "Hessian 2"),
    ("hybrid", "Hessian 1 call (version 2 header), Hessian 2 reply"),
    ("h1", "Hessian 1"),
    ("burlap", "Burlap"),
];

#[test]
fn java_proxy_calls_rust_server() {
    let Some(java) = java() else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(rust_server().bind("127.0.0.1:0")).unwrap();
    for (mode, dialect) in JAVA_MODES {
        for suite in ["bench", "faults"] {
            java_client(&java, &server.url("/bench"), mode, suite);
        }
        let out = java_client(&java, &server.url("/overload"), mode, "overload");
        assert!(out.contains(&format!("dialect {dialect}\n")), "mode {mode}: {out}");
        // the same overloads declared with #[service]
        let out = java_client(&java, &server.url("/overload-typed"), mode, "overload");
        assert!(out.contains("dialect typed\n") && out.contains("ok add_string_string"), "mode {mode}: {out}");
    }
    rt.block_on(server.shutdown());
}

/// Java's proxy writes all arguments of a call with one output: an object passed twice arrives
/// as the object and a reference to it (`Q 0`, `R 0`, `<ref>0</ref>`), which typed handlers
/// resolve into plain structs in every dialect.
#[test]
fn java_proxy_arguments_share_references_with_typed_handlers() {
    use hessian_testkit::structs::w2::Money;
    let Some(java) = java() else { return };
    let service = hessian_rpc::Service::builder()
        .typed_method("same", &["Money", "Money"], |(a, b): (Money, Money)| Ok(a == b))
        .typed_method("second", &["Money", "List"], |(_, l): (Money, Vec<Money>)| Ok(l))
        .build();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server =
        rt.block_on(hessian_rpc::HessianServer::builder().mount("/refs", service).build().bind("127.0.0.1:0")).unwrap();
    for (mode, _) in JAVA_MODES {
        let out = java_client(&java, &server.url("/refs"), mode, "refs");
        assert!(out.contains("ok same(m, m)") && out.contains("ok second(m, [m, m])"), "mode {mode}: {out}");
    }
    rt.block_on(server.shutdown());
}

/// Rust client dialects to try against the Java server.
const RUST_DIALECTS: &[Dialect] = &[Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_client_calls_java_server() {
    let Some(java) = java() else { return };
    let server = JavaServer::start(&java);
    let w2 = W2Classes::default();
    for &dialect in RUST_DIALECTS {
        let client = Client::builder().dialect(dialect).build();
        let bench = client.proxy(&server.url("/bench")).unwrap();
        for n in W1_SIZES {
            let got = bench.call("getItems", vec![Value::Int(n as i32)]).await.unwrap();
            assert!(hessian_demo::same_graph(&got, &items(n)), "{dialect}: getItems({n})");
            if dialect == Dialect::HESSIAN2 {
                assert_eq!(got, items(n), "{dialect}: getItems({n}) exactly");
            }
        }
        let got = bench.call("exchange", vec![w2.request()]).await.unwrap();
        assert!(hessian_demo::same_graph(&got, &w2.reply()), "{dialect}: exchange");

        // the typed client the service macro derives, against Java's skeleton
        let typed = hessian_demo::BenchClient::new(bench.clone());
        for n in W1_SIZES {
            assert_eq!(typed.get_items(n as i32).await.unwrap(), structs::items(n), "{dialect}: typed getItems({n})");
        }
        assert_eq!(*typed.exchange(structs::w2::request()).await.unwrap(), structs::w2::reply(), "{dialect}: typed");
        let err = typed.exchange(structs::w2::reply()).await.unwrap_err();
        let fault = err.fault().unwrap_or_else(|| panic!("{dialect}: expected a fault, got {err}"));
        assert_eq!(fault.exception_class(), Some("java.lang.IllegalArgumentException"), "{dialect}");

        // a Java exception thrown by the service
        let err = bench.call("exchange", vec![w2.reply()]).await.unwrap_err();
        let fault = err.fault().unwrap_or_else(|| panic!("{dialect}: expected a fault, got {err}"));
        assert_eq!(fault.code(), "ServiceException", "{dialect}");
        assert_eq!(fault.exception_class(), Some("java.lang.IllegalArgumentException"), "{dialect}");
        assert_eq!(fault.message(), Some("exchange: the order is not the W2 request"), "{dialect}");

        // the skeleton's own faults
        let err = bench.call("nope", vec![]).await.unwrap_err();
        let fault = err.fault().unwrap();
        assert_eq!(fault.code(), "NoSuchMethodException", "{dialect}");
        assert_eq!(fault.message(), Some("The service has no method named: nope"), "{dialect}");
        // Hessian 2 calls carry an argument count, which HessianSkeleton checks; Hessian 1 and
        // Burlap calls do not, and the skeleton fails reading the missing argument instead.
        let err = bench.call("getItems", vec![]).await.unwrap_err();
        if dialect == Dialect::HESSIAN2 {
            assert_eq!(err.fault().map(|f| f.code()), Some("NoSuchMethod"), "{dialect}: {err}");
        }

        // overloads by mangled name and by arity, and the meta call
        let o = client.proxy(&server.url("/overload")).unwrap();
        let s = |v: &str| Value::string(v);
        assert_eq!(o.call("add_int_int", vec![Value::Int(3), Value::Int(4)]).await.unwrap(), s("int,int:7"));
        assert_eq!(o.call("add_string_string", vec![s("a"), s("b")]).await.unwrap(), s("string,string:ab"));
        // by arity: Hessian 2 calls carry the count; Hessian 1 and Burlap callers name `add__1`
        let by_arity = if dialect == Dialect::HESSIAN2 { "add" } else { "add__1" };
        assert_eq!(o.call(by_arity, vec![Value::Int(5)]).await.unwrap(), s("int:5"), "{dialect}");
        assert_eq!(o.get_attribute("java.api.class").await.unwrap(), s("RpcOverloadService"));
    }
}

/// com.sun.net.httpserver sends `/bench-chunked` replies with `Transfer-Encoding: chunked` (in
/// 4 KiB chunks): the Rust client reads them in every dialect, values, faults and keep-alive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_client_reads_chunked_replies_from_java() {
    let Some(java) = java() else { return };
    let server = JavaServer::start(&java);
    let w2 = W2Classes::default();
    for &dialect in RUST_DIALECTS {
        let client = Client::builder().dialect(dialect).build();
        let bench = client.proxy(&server.url("/bench-chunked")).unwrap();
        for n in W1_SIZES {
            let got = bench.call("getItems", vec![Value::Int(n as i32)]).await.unwrap();
            assert!(hessian_demo::same_graph(&got, &items(n)), "{dialect}: getItems({n})");
        }
        let got = bench.call("exchange", vec![w2.request()]).await.unwrap();
        assert!(hessian_demo::same_graph(&got, &w2.reply()), "{dialect}: exchange");
        let err = bench.call("exchange", vec![w2.reply()]).await.unwrap_err();
        let fault = err.fault().unwrap_or_else(|| panic!("{dialect}: expected a fault, got {err}"));
        assert_eq!(fault.exception_class(), Some("java.lang.IllegalArgumentException"), "{dialect}");
        assert_eq!(bench.get_attribute("java.api.class").await.unwrap(), Value::string("RpcBenchService"));
    }
    // the blocking client too
    let url = server.url("/bench-chunked");
    let got = tokio::task::spawn_blocking(move || {
        let client = hessian_rpc::BlockingClient::new();
        let proxy = client.proxy(&url).unwrap();
        (0..3).map(|_| proxy.call("getItems", vec![Value::Int(2500)]).unwrap()).collect::<Vec<_>>()
    })
    .await
    .unwrap();
    assert!(got.iter().all(|v| *v == items(2500)));
}
