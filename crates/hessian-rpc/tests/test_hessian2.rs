//! Caucho's `TestHessian2` conformance service in both directions: Java's proxy calls every
//! method of the Rust server's `/test2`, and the Rust client calls every method of a Java
//! `HessianSkeleton` serving the same service, comparing with the conformance catalogue.

mod common;

use common::{java_client, rust_server, JavaServer};
use hessian::Value;
use hessian_rpc::{Client, Dialect};
use hessian_testkit::catalogue::{self, same_value};
use hessian_testkit::java::java;

#[test]
fn java_proxy_calls_every_test2_method_of_rust_server() {
    let Some(java) = java() else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(rust_server().bind("127.0.0.1:0")).unwrap();
    for mode in ["h2", "hybrid", "h1", "burlap"] {
        let out = java_client(&java, &server.url("/test2"), mode, "test2");
        let passed = out.lines().filter(|l| l.starts_with("ok ")).count();
        assert!(passed >= 180, "{mode}: only {passed} checks\n{out}");
        eprintln!("{mode}: {passed} TestHessian2 checks passed");
    }
    rt.block_on(server.shutdown());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_client_calls_every_test2_method_of_java_server() {
    let Some(java) = java() else { return };
    let server = JavaServer::start(&java);
    for dialect in [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP] {
        let proxy = Client::builder().dialect(dialect).build().proxy(&server.url("/test2")).unwrap();
        assert_eq!(proxy.call("methodNull", vec![]).await.unwrap(), Value::Null);
        let mut failures = Vec::new();
        for case in catalogue::test_hessian2_replies() {
            match proxy.call(&case.name, vec![]).await {
                Ok(v) if same_value(&v, case.decoded()) => {}
                other => failures.push(format!("{}: {other:?}", case.name)),
            }
        }
        for &name in catalogue::ARG_METHODS {
            let arg = catalogue::arg_expectation(name).expect("catalogue value");
            match proxy.call(name, vec![arg]).await {
                Ok(Value::Bool(true)) => {}
                other => failures.push(format!("{name}: {other:?}")),
            }
        }
        assert!(failures.is_empty(), "{dialect}: {} failures:\n{}", failures.len(), failures.join("\n"));
    }
}
