//! The `#[service]` macro end to end over loopback HTTP, in every protocol: the generated
//! server dispatch, the async and blocking clients, Java-style names, overloads, errors as
//! faults with the implementor's Java class, and typed errors for bad arguments and replies.

use hessian_rpc::{service, BlockingClient, Client, Dialect, HessianServer, ServiceError};
use hessian_testkit::structs::w2;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A calculator.
#[service(api = "org.example.Calculator")]
pub trait Calculator {
    /// Adds two ints (Java `int add(int, int)`).
    #[hessian(name = "add")]
    async fn add2(&self, a: i32, b: i32) -> Result<i32, ServiceError>;
    /// The one-argument overload (Java `int add(int)`).
    #[hessian(name = "add")]
    async fn add1(&self, a: i32) -> Result<i32, ServiceError>;
    /// Java name `greetPerson` by default.
    async fn greet_person(&self, name: String) -> String;
    /// Divides, failing with a Java exception class of the implementor's choice.
    async fn divide(&self, a: i64, b: i64) -> Result<i64, ServiceError>;
    /// Uses `?` on a foreign error type.
    async fn parse(&self, s: String) -> Result<i32, ServiceError>;
    /// Sums a list of Money objects sharing references.
    async fn total(&self, lines: Vec<w2::Money>, extra: w2::Money) -> Result<w2::Money, ServiceError>;
    /// Counts the calls made so far.
    async fn calls(&self) -> usize;
}

#[derive(Default)]
struct Calc {
    calls: Arc<AtomicUsize>,
}

impl Calc {
    fn count(&self) {
        self.calls.fetch_add(1, Ordering::SeqCst);
    }
}

impl Calculator for Calc {
    async fn add2(&self, a: i32, b: i32) -> Result<i32, ServiceError> {
        self.count();
        a.checked_add(b).ok_or_else(|| ServiceError::illegal_argument("overflow"))
    }
    async fn add1(&self, a: i32) -> Result<i32, ServiceError> {
        self.count();
        Ok(a + 100)
    }
    async fn greet_person(&self, name: String) -> String {
        self.count();
        format!("hello, {name}")
    }
    async fn divide(&self, a: i64, b: i64) -> Result<i64, ServiceError> {
        self.count();
        if b == 0 {
            return Err(ServiceError::new("java.lang.ArithmeticException", "/ by zero"));
        }
        tokio::task::yield_now().await;
        Ok(a / b)
    }
    async fn parse(&self, s: String) -> Result<i32, ServiceError> {
        self.count();
        Ok(s.parse::<i32>()?)
    }
    async fn total(&self, lines: Vec<w2::Money>, extra: w2::Money) -> Result<w2::Money, ServiceError> {
        self.count();
        let cents = lines.iter().map(|m| m.cents).sum::<i32>() + extra.cents;
        Ok(w2::Money { cents, currency: extra.currency })
    }
    async fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

const DIALECTS: [Dialect; 4] = [Dialect::HESSIAN2, Dialect::HYBRID, Dialect::HESSIAN1, Dialect::BURLAP];

#[tokio::test]
async fn generated_server_and_client_in_every_protocol() {
    let calc = Calc::default();
    let calls = calc.calls.clone();
    let server =
        HessianServer::builder().mount("/calc", calc.into_service()).build().bind("127.0.0.1:0").await.unwrap();
    let mut expected_calls = 0;
    for dialect in DIALECTS {
        let proxy = Client::builder().dialect(dialect).build().proxy(&server.url("/calc")).unwrap();
        let c = CalculatorClient::new(proxy.clone());
        assert_eq!(c.add2(2, 3).await.unwrap(), 5, "{dialect}");
        assert_eq!(c.add1(2).await.unwrap(), 102, "{dialect}");
        assert_eq!(c.greet_person("Ada".into()).await.unwrap(), "hello, Ada", "{dialect}");
        assert_eq!(c.divide(7, 2).await.unwrap(), 3, "{dialect}");
        let e = c.divide(1, 0).await.unwrap_err();
        let f = e.fault().expect("a fault");
        assert_eq!(f.code(), "ServiceException", "{dialect}");
        assert_eq!(f.exception_class(), Some("java.lang.ArithmeticException"), "{dialect}");
        assert_eq!(f.message(), Some("/ by zero"));
        let e = c.parse("x".into()).await.unwrap_err();
        assert_eq!(e.fault().and_then(|f| f.exception_class()), Some("java.lang.RuntimeException"), "{dialect}");
        assert!(e.to_string().contains("invalid digit"), "{e}");
        let e = c.add2(i32::MAX, 1).await.unwrap_err();
        assert_eq!(e.fault().and_then(|f| f.exception_class()), Some("java.lang.IllegalArgumentException"));
        let m = w2::Money { cents: 250, currency: "EUR".into() };
        let t = c.total(vec![m.clone(), m.clone(), m.clone()], m.clone()).await.unwrap();
        assert_eq!(t, w2::Money { cents: 1000, currency: "EUR".into() }, "{dialect}");
        expected_calls += 8;
        assert_eq!(c.calls().await.unwrap(), expected_calls, "{dialect}");
        // the Java names: plain, __N and mangled, as HessianSkeleton registers them
        assert_eq!(proxy.call_typed::<_, String>("greetPerson", ("Bob".to_owned(),)).await.unwrap(), "hello, Bob");
        assert_eq!(proxy.call_typed::<_, i32>("add__2", (1, 1)).await.unwrap(), 2);
        assert_eq!(proxy.call_typed::<_, i32>("add_int", (1,)).await.unwrap(), 101);
        assert_eq!(
            proxy.get_attribute("java.api.class").await.unwrap(),
            hessian::Value::string("org.example.Calculator")
        );
        expected_calls += 3;
    }
    assert_eq!(calls.load(Ordering::SeqCst), expected_calls);
    server.shutdown().await;
}

#[test]
fn blocking_client() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let server = rt.block_on(HessianServer::single(Calc::default().into_service()).bind("127.0.0.1:0")).unwrap();
    for dialect in DIALECTS {
        let client = BlockingClient::with_builder(Client::builder().dialect(dialect));
        let c = CalculatorBlockingClient::new(client.proxy(&server.url("/")).unwrap());
        assert_eq!(c.add2(40, 2).unwrap(), 42, "{dialect}");
        assert_eq!(c.greet_person("Eve".into()).unwrap(), "hello, Eve");
    }
    rt.block_on(server.shutdown());
}

/// Bad arguments get HessianSkeleton's faults and run nothing; a reply of another type is a
/// typed client error with an offset into the reply.
#[tokio::test]
async fn bad_arguments_and_replies() {
    let calc = Calc::default();
    let calls = calc.calls.clone();
    let server = HessianServer::single(calc.into_service()).bind("127.0.0.1:0").await.unwrap();
    for dialect in DIALECTS {
        let proxy = Client::builder().dialect(dialect).build().proxy(&server.url("/")).unwrap();
        // wrong type: an argument fault naming the method and the argument, with the offset
        let e = proxy.call_typed::<_, i64>("divide", (1i64, "two")).await.unwrap_err();
        let f = e.fault().expect("fault");
        assert_eq!(f.exception_class(), Some("java.lang.IllegalArgumentException"), "{dialect}");
        let message = f.message().unwrap_or_default();
        assert!(message.starts_with("divide: argument 2 of 2: "), "{dialect}: {message}");
        assert!(message.contains("offset"), "{dialect}: {message}");
        // wrong count
        let e = proxy.call_typed::<_, i64>("divide", (1i64,)).await.unwrap_err();
        assert_eq!(e.fault().map(|f| f.code()), Some("NoSuchMethod"), "{dialect}: {e}");
        let e = proxy.call_typed::<_, i64>("divide", (1i64, 2i64, 3i64)).await.unwrap_err();
        assert_eq!(e.fault().map(|f| f.code()), Some("NoSuchMethod"), "{dialect}: {e}");
        // unknown method
        let e = proxy.call_typed::<_, i64>("nope", ()).await.unwrap_err();
        assert_eq!(e.fault().map(|f| f.code()), Some("NoSuchMethodException"), "{dialect}: {e}");
        // a reply that is not the declared type
        let e = proxy.call_typed::<_, i32>("greetPerson", ("x".to_owned(),)).await.unwrap_err();
        match e {
            hessian_rpc::Error::Reply(err) => assert!(err.offset() > 0 && err.offset() < 100, "{dialect}: {err}"),
            other => panic!("{dialect}: {other}"),
        }
    }
    // only the greetPerson calls ran
    assert_eq!(calls.load(Ordering::SeqCst), DIALECTS.len());
    server.shutdown().await;
}
