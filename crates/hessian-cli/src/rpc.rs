//! `hessian call` (curl for Hessian) and `hessian serve-demo` (the Serving conventions).

use crate::format::Format;
use crate::{parse_json, pretty, stdout_err, CliError};
use hessian_rpc::{Client, Dialect};
use std::io::Write;
use std::time::Duration;

/// Arguments of `hessian call`.
#[derive(clap::Args, Debug)]
pub struct CallArgs {
    /// The service URL, e.g. `http://127.0.0.1:8080/bench`.
    pub url: String,
    /// The method name (mangled names such as `add_int_int` and `add__2` pass through as is).
    pub method: String,
    /// The arguments, one typed-JSON value each (e.g. `5`, `'"text"'`, `'{"long": 7}'`).
    pub args: Vec<String>,
    /// With `--format h1`: send the `c 2 0` call Java's proxy sends and read a Hessian 2 reply.
    #[arg(long)]
    pub hybrid: bool,
    /// Seconds to wait for the reply.
    #[arg(long, default_value_t = 30)]
    pub timeout: u64,
    /// Print the JSON on one line instead of indented.
    #[arg(long)]
    pub compact: bool,
}

/// Arguments of `hessian serve-demo`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: String,
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| CliError::Io { path: "<runtime>".into(), source })
}

/// Runs `hessian call`.
pub fn call(format: Format, a: CallArgs) -> Result<(), CliError> {
    let dialect = match (format, a.hybrid) {
        (Format::H2, _) => Dialect::HESSIAN2,
        (Format::H1, false) => Dialect::HESSIAN1,
        (Format::H1, true) => Dialect::HYBRID,
        (Format::Burlap, _) => Dialect::BURLAP,
    };
    let mut args = Vec::with_capacity(a.args.len());
    for (i, text) in a.args.iter().enumerate() {
        let index = i + 1;
        let json = parse_json(text.as_bytes(), &format!("argument {index}"))?;
        let v = hessian::json::from_json(&json)
            .map_err(|e| CliError::CallArgument { index, message: format!("not valid typed JSON: {e}") })?;
        args.push(v);
    }
    let rt = runtime()?;
    let result = rt.block_on(async {
        let client = Client::builder().dialect(dialect).timeout(Duration::from_secs(a.timeout)).build();
        client.proxy(&a.url)?.call(&a.method, args).await
    });
    let (json, fault) = match result {
        Ok(v) => (hessian::json::to_json(&v), false),
        Err(hessian_rpc::Error::Fault(f)) => {
            let f = f.into_inner();
            let mut m = serde_json::Map::new();
            m.insert("code".into(), f.code.into());
            m.insert("message".into(), f.message.into());
            if let Some(d) = &f.detail {
                m.insert("detail".into(), hessian::json::to_json(d));
            }
            let mut outer = serde_json::Map::new();
            outer.insert("fault".into(), serde_json::Value::Object(m));
            (serde_json::Value::Object(outer), true)
        }
        Err(e) => return Err(e.into()),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.compact {
        serde_json::to_writer(&mut out, &json).map_err(|e| stdout_err(e.into()))?;
        out.write_all(b"\n").map_err(stdout_err)?;
    } else {
        pretty::write(&mut out, &json).map_err(stdout_err)?;
    }
    out.flush().map_err(stdout_err)?;
    if fault {
        Err(CliError::Fault)
    } else {
        Ok(())
    }
}

/// Runs `hessian serve-demo` until Ctrl-C (or SIGTERM), then shuts down gracefully.
pub fn serve_demo(a: ServeArgs) -> Result<(), CliError> {
    let rt = runtime()?;
    rt.block_on(async {
        let io = |source| CliError::Io { path: a.listen.clone(), source };
        let listener = tokio::net::TcpListener::bind(&a.listen).await.map_err(io)?;
        let addr = listener.local_addr().map_err(io)?;
        println!("hessian serve-demo: listening on http://{addr} (/bench: W1/W2, /test2: TestHessian2)");
        let _ = std::io::stdout().flush();
        hessian_rpc::demo::demo_server().serve_listener(listener, shutdown_signal()).await;
        Ok(())
    })
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
