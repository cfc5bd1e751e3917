//! Each call is a `tracing` span that a user's subscriber sees: method, protocol, request and
//! reply bytes, duration and, for a fault, its code.

use hessian_rpc::{service, Client, Dialect, HessianServer, ServiceError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

#[service]
trait Echo {
    async fn echo(&self, s: String) -> Result<String, ServiceError>;
}

struct E;

impl Echo for E {
    async fn echo(&self, s: String) -> Result<String, ServiceError> {
        if s.is_empty() {
            return Err(ServiceError::illegal_argument("empty"));
        }
        Ok(s)
    }
}

type Fields = HashMap<String, String>;

/// Records the fields of every `hessian.call` span, and the spans closed.
#[derive(Clone, Default)]
struct Recorder {
    open: Arc<Mutex<HashMap<u64, Fields>>>,
    closed: Arc<Mutex<Vec<Fields>>>,
}

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}").trim_matches('"').to_owned());
    }
}

impl<S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>> Layer<S> for Recorder {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _ctx: Context<'_, S>) {
        if attrs.metadata().name() != "hessian.call" {
            return;
        }
        let mut f = Fields::new();
        attrs.record(&mut Collect(&mut f));
        self.open.lock().unwrap().insert(id.into_u64(), f);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _ctx: Context<'_, S>) {
        if let Some(f) = self.open.lock().unwrap().get_mut(&id.into_u64()) {
            values.record(&mut Collect(f));
        }
    }

    fn on_close(&self, id: Id, _ctx: Context<'_, S>) {
        if let Some(f) = self.open.lock().unwrap().remove(&id.into_u64()) {
            self.closed.lock().unwrap().push(f);
        }
    }
}

#[test]
fn every_call_is_a_span() {
    let recorder = Recorder::default();
    let subscriber = tracing_subscriber::registry().with(recorder.clone());
    let _guard = tracing::subscriber::set_default(subscriber);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let server = HessianServer::single(E.into_service()).bind("127.0.0.1:0").await.unwrap();
        for dialect in [Dialect::HESSIAN2, Dialect::BURLAP] {
            let c = EchoClient::new(Client::builder().dialect(dialect).build().proxy(&server.url("/")).unwrap());
            assert_eq!(c.echo("hi".into()).await.unwrap(), "hi");
            assert!(c.echo(String::new()).await.is_err());
        }
        server.shutdown().await;
    });
    let closed = recorder.closed.lock().unwrap().clone();
    assert_eq!(closed.len(), 4, "{closed:?}");
    for (i, f) in closed.iter().enumerate() {
        assert_eq!(f["method"], "echo");
        assert!(f["protocol"].starts_with(if i < 2 { "Hessian 2" } else { "Burlap" }), "{f:?}");
        assert!(f["request_bytes"].parse::<usize>().unwrap() > 10, "{f:?}");
        assert!(f["reply_bytes"].parse::<usize>().unwrap() > 4, "{f:?}");
        assert!(f.contains_key("duration_us"), "{f:?}");
        assert_eq!(f.get("fault").map(String::as_str), (i % 2 == 1).then_some("ServiceException"), "{f:?}");
    }
}
