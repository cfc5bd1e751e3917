//! The floor of the server benchmark: a plain hyper HTTP/1.1 server that reads each request body
//! and answers fixed bytes (no Hessian work), on the same runtime and hyper settings as
//! `hessian serve-demo`. Measured against it with the same `wrk` script, the difference is what
//! the Hessian server adds per call.
//!
//! ```sh
//! cargo run --release -p hessian-bench --example hyper_floor -- 127.0.0.1:18081 REPLY_FILE
//! ```

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::time::Duration;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:18081".to_owned());
    let reply = Bytes::from(match args.next() {
        Some(path) => std::fs::read(path)?,
        None => b"H\x02\x00R\x91".to_vec(),
    });
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&addr).await?;
        println!("hyper_floor: listening on http://{}", listener.local_addr()?);
        let mut http = hyper::server::conn::http1::Builder::new();
        http.keep_alive(true).timer(TokioTimer::new()).header_read_timeout(Duration::from_secs(30));
        let http = std::sync::Arc::new(http);
        loop {
            let (stream, _) = listener.accept().await?;
            let _ = stream.set_nodelay(true);
            let (http, reply) = (http.clone(), reply.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: http::Request<hyper::body::Incoming>| {
                    let reply = reply.clone();
                    async move {
                        let _ = req.into_body().collect().await;
                        let mut r = http::Response::new(Full::new(reply));
                        r.headers_mut().insert(
                            http::header::CONTENT_TYPE,
                            http::HeaderValue::from_static("x-application/hessian"),
                        );
                        Ok::<_, Infallible>(r)
                    }
                });
                let _ = http.serve_connection(TokioIo::new(stream), service).await;
            });
        }
    })
}
