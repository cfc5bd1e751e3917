//! The worker-per-core server (`HessianServer::spawn_workers`): connections spread over the
//! workers' `SO_REUSEPORT` sockets and each is served on one worker thread, the connection limit
//! is one for all workers, and shutdown lets a call in progress finish, then stops every worker.

use hessian::Value;
use hessian_rpc::{Client, HessianServer, Service, WorkerServer};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn service() -> Service {
    Service::builder()
        .sync_method("thread", &[], |_| {
            Ok(Value::string(std::thread::current().name().unwrap_or("unnamed").to_owned()))
        })
        .method("slow", &["int"], |_ctx, a| async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            Ok(a.into_iter().next().unwrap_or(Value::Null))
        })
        .build()
}

fn start(workers: usize, max_connections: usize) -> WorkerServer {
    HessianServer::builder()
        .mount("/w", service())
        .header_read_timeout(Duration::from_millis(500))
        .max_connections(max_connections)
        .build()
        .spawn_workers("127.0.0.1:0".parse().expect("address"), workers)
        .expect("bind loopback")
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("runtime")
}

/// The worker thread that answered, by a new client (so a new connection) per call.
async fn answered_by(url: &str) -> String {
    let got = Client::new().proxy(url).expect("proxy").call("thread", vec![]).await.expect("call");
    match got {
        Value::String(s) => s.to_string(),
        other => panic!("not a thread name: {other:?}"),
    }
}

#[test]
fn connections_spread_over_the_workers_and_stay_on_one() {
    let server = start(2, 1024);
    assert_eq!(server.workers(), 2);
    let url = server.url("/w");
    let rt = runtime();
    let names: BTreeSet<String> = rt.block_on(async {
        let calls: Vec<_> = (0..32)
            .map(|_| {
                tokio::spawn({
                    let url = url.clone();
                    async move { answered_by(&url).await }
                })
            })
            .collect();
        let mut names = BTreeSet::new();
        for c in calls {
            names.insert(c.await.expect("task"));
        }
        names
    });
    // 32 connections hashed over two sockets: all on one would happen once in 2^31 runs
    assert_eq!(
        names,
        BTreeSet::from(["hessian-worker-0".to_owned(), "hessian-worker-1".to_owned()]),
        "the workers that answered"
    );
    // every call of one connection is answered by the same worker
    rt.block_on(async {
        let p = Client::new().proxy(&url).expect("proxy");
        let mut seen = BTreeSet::new();
        for _ in 0..20 {
            seen.insert(format!("{:?}", p.call("thread", vec![]).await.expect("call")));
        }
        assert_eq!(seen.len(), 1, "one keep-alive connection, answered by {seen:?}");
    });
    server.shutdown();
}

#[test]
fn the_connection_limit_is_one_for_all_workers() {
    let server = start(2, 4);
    let addr = server.local_addr();
    let url = server.url("/w");
    let rt = runtime();
    rt.block_on(async {
        // four connections that say nothing take every slot, whichever worker each landed on,
        // until the header timeout frees them
        let mut held = Vec::new();
        for _ in 0..4 {
            held.push(tokio::net::TcpStream::connect(addr).await.expect("connect"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        let t = Instant::now();
        let name = answered_by(&url).await;
        let waited = t.elapsed();
        assert!(name.starts_with("hessian-worker-"), "answered by {name}");
        assert!(waited >= Duration::from_millis(300), "served after {waited:?}: the limit did not hold");
        assert!(waited < Duration::from_secs(5), "served after {waited:?}");
        drop(held);
    });
    server.shutdown();
}

#[test]
fn shutdown_lets_a_call_finish_then_stops_every_worker() {
    let server = start(0, 1024);
    assert_eq!(server.workers(), std::thread::available_parallelism().map_or(1, |n| n.get()));
    let (addr, url) = (server.local_addr(), server.url("/w"));
    let rt = runtime();
    let slow =
        rt.spawn(async move { Client::new().proxy(&url).expect("proxy").call("slow", vec![Value::Int(7)]).await });
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    server.shutdown();
    assert!(t.elapsed() >= Duration::from_millis(100), "shutdown returned before the call in progress ended");
    let answer = rt.block_on(slow).expect("task");
    assert_eq!(answer.expect("the call in progress is answered"), Value::Int(7));
    // nothing listens any more
    assert!(std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_err(), "still listening");
}
