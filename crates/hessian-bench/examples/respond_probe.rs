//! Profiling probe for the server's per-call work without HTTP (run under valgrind/perf):
//! `respond_probe w2|w1 N` answers N W2 `exchange` calls (or `getItems(100)` calls) through
//! `Service::respond` of the typed demo service, from the request bytes to the reply bytes.
//! `respond_probe w2|w1 0 FILE` writes the request body to FILE instead (for wrk or curl).
use hessian::serde::message::CallWriter;
use hessian_rpc::Dialect;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "w2".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let body = match which.as_str() {
        "w1" => {
            let mut w = CallWriter::new(hessian::Format::Hessian2, 2, "getItems", &[], 1).expect("call");
            w.arg(&100i32).expect("arg");
            w.finish().expect("finish")
        }
        _ => {
            let mut w = CallWriter::new(hessian::Format::Hessian2, 2, "exchange", &[], 1).expect("call");
            w.arg(&hessian_testkit::structs::w2::request()).expect("arg");
            w.finish().expect("finish")
        }
    };
    if let Some(path) = args.next() {
        // `respond_probe w2|w1 0 FILE`: writes the request body (for wrk or curl) and stops
        std::fs::write(&path, &body).expect("write the body");
        return;
    }
    let service = hessian_rpc::demo::bench_service();
    let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
    let t = std::time::Instant::now();
    let mut total = 0;
    rt.block_on(async {
        for _ in 0..n {
            let reply = service.respond(&body, Dialect::HESSIAN2, hessian::Limits::default()).await;
            total += reply.len();
        }
    });
    eprintln!("{which}: {:?} per call, {} reply bytes", t.elapsed() / n as u32, total / n.max(1));
}
