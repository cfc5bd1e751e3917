//! Profiling probe for the W1 round trip (run under valgrind/perf): `rpc_probe N` makes N
//! `getItems(5000)` calls from the Rust client to the Rust server over loopback.
use hessian::Value;
use hessian_rpc::{Client, HessianServer};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let server = HessianServer::builder()
            .mount("/bench", hessian_rpc::demo::bench_service())
            .build()
            .bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}/bench", server.local_addr());
        let proxy = Client::builder().build().proxy(&url).expect("url");
        let t = std::time::Instant::now();
        for _ in 0..n {
            let v = proxy.call("getItems", vec![Value::Int(5000)]).await.expect("call");
            std::hint::black_box(v);
        }
        eprintln!("{:?} per call", t.elapsed() / n as u32);
        server.shutdown().await;
    });
}
