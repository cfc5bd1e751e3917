//! Java exceptions through faults, both ways: a Java skeleton's exception with its cause chain
//! and stack trace arrives as a [`JavaException`] in every protocol; a cause chain that loops is
//! an error, not a hang; and a Rust service's error reaches a Java caller as an exception it can
//! `catch` by its class.

mod common;

use common::JavaServer;
use hessian::Value;
use hessian_rpc::fault::{ExceptionError, JavaException};
use hessian_rpc::{Client, Dialect, Error, HessianServer, ServiceError};
use hessian_testkit::java::java;

fn exception_of(err: Error) -> Result<JavaException, ExceptionError> {
    match err {
        Error::Fault(f) => f.exception(),
        other => panic!("expected a fault, got {other}"),
    }
}

#[test]
fn a_java_exception_arrives_with_its_causes_and_stack_trace() {
    let Some(java) = java() else { return };
    let server = JavaServer::start(&java);
    let url = server.url("/faults");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1, Dialect::HYBRID, Dialect::BURLAP] {
            let proxy = Client::builder().dialect(dialect).build().proxy(&url).unwrap();
            let err = proxy.call("chain", vec![Value::string("boom")]).await.unwrap_err();
            let e = exception_of(err).unwrap_or_else(|e| panic!("{dialect:?}: {e}"));
            let chain: Vec<(&str, Option<&str>)> =
                e.chain().map(|x| (x.class.as_str(), x.message.as_deref())).collect();
            assert_eq!(
                chain,
                [
                    ("java.lang.IllegalStateException", Some("boom")),
                    ("java.io.IOException", Some("disk gone")),
                    ("java.lang.ArithmeticException", Some("/ by zero")),
                ],
                "{dialect:?}"
            );
            let top = &e.stack_trace[0];
            assert_eq!((top.declaring_class.as_str(), top.method.as_str()), ("RpcFaultServiceImpl", "chain"));
            assert_eq!(top.file.as_deref(), Some("RpcFaultServiceImpl.java"));
            assert!(top.line > 0, "{top:?}");
            assert!(e.stack_trace.len() > 3);
            let text = e.to_string();
            assert!(text.contains("\nCaused by: java.io.IOException: disk gone"), "{text}");
            assert!(text.contains("\tat RpcFaultServiceImpl.chain(RpcFaultServiceImpl.java:"), "{text}");
            // the chain is the std::error::Error source chain too
            let source = std::error::Error::source(&e).map(|s| s.to_string()).unwrap_or_default();
            assert!(source.starts_with("java.io.IOException: disk gone"), "{source}");
        }
        // a cause chain that loops (a -> b -> a) is refused, in every protocol
        for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1, Dialect::BURLAP] {
            let proxy = Client::builder().dialect(dialect).build().proxy(&url).unwrap();
            let err = proxy.call("loop", vec![]).await.unwrap_err();
            assert_eq!(
                exception_of(err),
                Err(ExceptionError::CyclicCause {
                    class: "java.lang.IllegalArgumentException".into(),
                    back_to: "java.lang.IllegalStateException".into()
                }),
                "{dialect:?}"
            );
        }
    });
}

/// A service whose `fail` answers a Rust error that names a Java exception class.
#[hessian_rpc::service(api = "RpcFaultServiceImpl$Thrower")]
trait Thrower {
    async fn fail(&self, message: String) -> Result<String, ServiceError>;
}

struct Failing;

impl Thrower for Failing {
    async fn fail(&self, message: String) -> Result<String, ServiceError> {
        Err(ServiceError::illegal_argument(message))
    }
}

#[test]
fn a_java_caller_catches_a_rust_error_by_its_class() {
    let Some(java) = java() else { return };
    let server = JavaServer::start(&java);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let rust = rt
        .block_on(HessianServer::builder().mount("/thrower", Failing.into_service()).build().bind("127.0.0.1:0"))
        .unwrap();
    let answer = rt.block_on(async {
        let proxy = Client::new().proxy(&server.url("/faults")).unwrap();
        proxy.call("catchFrom", vec![Value::string(rust.url("/thrower"))]).await.unwrap()
    });
    assert_eq!(answer, Value::string("caught IllegalArgumentException: from rust"));
    rt.block_on(rust.shutdown());
}
