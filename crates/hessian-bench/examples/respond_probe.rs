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
    if let Some(form) = which.strip_prefix("handle-") {
        handle(form, &body, n);
        return;
    }
    let service = hessian_demo::bench_service();
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

/// `respond_probe handle-plain|handle-offer|handle-ref N`: the whole server answer
/// (`HessianServer::handle`: headers, body, type maps, reply) to N in-memory W2 requests: plain
/// without the negotiation offer, plain with it, or referring to the W2 map with the
/// `Hessian-Reply-Map` of the server's own reply map.
fn handle(form: &str, plain: &[u8], n: usize) {
    use http_body_util::{BodyExt, Full};
    let server = hessian_demo::demo_server();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let request = |body: Vec<u8>, headers: &[(&str, String)]| {
        let mut r = http::Request::builder().method("POST").uri("/bench");
        for (k, v) in headers {
            r = r.header(*k, v);
        }
        r.body(Full::new(bytes::Bytes::from(body))).expect("request")
    };
    let offer = ("Hessian-Type-Maps", "1".to_owned());
    // the plain call with the offer establishes the map (and the reply map) on this server
    let first = rt.block_on(server.handle(request(plain.to_vec(), std::slice::from_ref(&offer))));
    let listed = first.headers().get("hessian-type-map").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let digest = listed.split(',').next().and_then(hessian::negotiate::parse_digest).expect("a listed map");
    let classes = hessian::negotiate::message_classes(plain, hessian::Limits::default()).expect("classes");
    let map = hessian::negotiate::TypeMap::new(classes).expect("map");
    assert_eq!(map.digest(), digest);
    let mut w =
        hessian::serde::message::CallWriter::referring(hessian::Format::Hessian2, &map, "exchange", 1, Vec::new())
            .expect("call");
    w.arg(&hessian_testkit::structs::w2::request()).expect("arg");
    let referring = w.finish().expect("finish");
    let (body, headers): (Vec<u8>, Vec<(&str, String)>) = match form {
        "plain" => (plain.to_vec(), vec![]),
        "offer" => (plain.to_vec(), vec![offer]),
        _ => (referring, vec![offer, ("Hessian-Reply-Map", map.hex())]),
    };
    let t = std::time::Instant::now();
    let mut total = 0;
    rt.block_on(async {
        for _ in 0..n {
            let resp = server.handle(request(body.clone(), &headers)).await;
            total += resp.into_body().collect().await.map(|b| b.to_bytes().len()).unwrap_or(0);
        }
    });
    eprintln!("handle-{form}: {:?} per call, {} reply bytes", t.elapsed() / n.max(1) as u32, total / n.max(1));
}
