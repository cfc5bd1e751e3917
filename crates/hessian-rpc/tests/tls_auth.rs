//! https and HTTP basic authentication, both ways with Java and Rust to Rust: the Rust server
//! with TLS (rustls) behind an [`AuthLayer`], called by Caucho's `HessianProxyFactory` over
//! https with `setUser`/`setPassword`; the Rust client with a custom root and basic auth
//! calling Caucho's skeleton behind the JDK's `HttpsServer` with a `BasicAuthenticator`. Every
//! certificate is self-signed and made by the test (rcgen for the Rust server, `keytool` for
//! the Java one).

mod common;

use common::rust_server_builder;
use hessian::Value;
use hessian_rpc::auth::{AuthLayer, Layer};
use hessian_rpc::tls::{certificates_from_pem, server_config_from_pem};
use hessian_rpc::{Client, Dialect, Error, HessianServer};
use hessian_testkit::java::{java, Java, JVM_OPTS};
use hessian_testkit::workloads::W2Classes;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const USER: &str = "aladdin";
const PASSWORD: &str = "open sesame";

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hessian-tls-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// A self-signed certificate for 127.0.0.1 and localhost: (certificate PEM, key PEM).
fn self_signed() -> (String, String) {
    let c = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).expect("rcgen");
    (c.cert.pem(), c.signing_key.serialize_pem())
}

/// The Rust test server over https with basic auth, on a background runtime.
struct TlsServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    rt: tokio::runtime::Runtime,
}

impl TlsServer {
    fn start(server: hessian_rpc::HessianServerBuilder, cert: &str, key: &str) -> TlsServer {
        let rt = tokio::runtime::Runtime::new().expect("runtime");
        let tls = server_config_from_pem(cert.as_bytes(), key.as_bytes()).expect("server TLS config");
        let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let server: HessianServer = server.tls(tls).build();
        let guarded = AuthLayer::basic("hessian", |u, p| u == USER && p == PASSWORD).layer(server.clone());
        rt.spawn(server.serve_service(listener, guarded, async move {
            let _ = rx.await;
        }));
        TlsServer { addr, stop: Some(tx), rt }
    }

    fn url(&self, path: &str) -> String {
        format!("https://127.0.0.1:{}{path}", self.addr.port())
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        // let the server task see the signal and stop accepting
        self.rt.block_on(async { tokio::time::sleep(std::time::Duration::from_millis(10)).await });
    }
}

fn keytool(args: &[&str]) {
    let out = Command::new("keytool").args(args).output().expect("keytool (from the JDK)");
    assert!(out.status.success(), "keytool {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn client(cert_pem: &str) -> hessian_rpc::ClientBuilder {
    let mut b = Client::builder();
    for c in certificates_from_pem(cert_pem.as_bytes()).expect("PEM") {
        b = b.add_root_certificate(c);
    }
    b
}

#[test]
fn rust_client_and_server_over_https_with_basic_auth() {
    let (cert, key) = self_signed();
    let server = TlsServer::start(rust_server_builder(), &cert, &key);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let w2 = W2Classes::default();
        for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1, Dialect::HYBRID, Dialect::BURLAP] {
            let proxy =
                client(&cert).dialect(dialect).basic_auth(USER, PASSWORD).build().proxy(&server.url("/bench")).unwrap();
            // several calls on the pooled TLS connection
            for _ in 0..3 {
                let reply = proxy.call("exchange", vec![w2.request()]).await.unwrap();
                assert!(hessian_demo::same_graph(&reply, &w2.reply()), "{dialect:?}");
            }
            let items = proxy.call("getItems", vec![Value::Int(1000)]).await.unwrap();
            assert!(matches!(&items, Value::List(l) if l.items.len() == 1000), "{dialect:?}");
        }
        // the typed client over the same connection settings
        let proxy = client(&cert).basic_auth(USER, PASSWORD).build().proxy(&server.url("/bench")).unwrap();
        let bench = hessian_demo::BenchClient::new(proxy);
        assert_eq!(bench.get_items(3).await.unwrap().len(), 3);
        // a wrong password: 401, nothing run
        let proxy = client(&cert).basic_auth(USER, "wrong").build().proxy(&server.url("/bench")).unwrap();
        let err = proxy.call("getItems", vec![Value::Int(1)]).await.unwrap_err();
        assert!(matches!(&err, Error::Http { status, .. } if status.as_u16() == 401), "{err}");
        // no credentials at all
        let proxy = client(&cert).build().proxy(&server.url("/bench")).unwrap();
        let err = proxy.call("getItems", vec![Value::Int(1)]).await.unwrap_err();
        assert!(matches!(&err, Error::Http { status, .. } if status.as_u16() == 401), "{err}");
        // a client that does not trust the certificate refuses the server
        let proxy = Client::builder().basic_auth(USER, PASSWORD).build().proxy(&server.url("/bench")).unwrap();
        let err = proxy.call("getItems", vec![Value::Int(1)]).await.unwrap_err();
        assert!(
            matches!(&err, Error::Transport(m) if m.contains("TLS handshake") && m.contains("certificate")),
            "{err}"
        );
        // plain HTTP to the TLS port gets no reply it could mistake for one
        let plain = format!("http://127.0.0.1:{}/bench", server.addr.port());
        let err = Client::builder()
            .basic_auth(USER, PASSWORD)
            .build()
            .proxy(&plain)
            .unwrap()
            .call("getItems", vec![Value::Int(1)])
            .await;
        assert!(err.is_err());
    });
}

fn java_opts(extra: &[String]) -> Vec<String> {
    JVM_OPTS.iter().map(|s| s.to_string()).chain(extra.iter().cloned()).collect()
}

fn run_java_client(java: &Java, opts: &[String], url: &str, mode: &str) -> (bool, String) {
    let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
    let out = java
        .command_with(&opts, "RpcJavaClient")
        .args([url, mode, "bench"])
        .stdin(Stdio::null())
        .output()
        .expect("run RpcJavaClient");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn java_proxy_calls_the_rust_server_over_https_with_basic_auth() {
    let Some(java) = java() else { return };
    let (cert, key) = self_signed();
    let dir = scratch("java-client");
    let pem = dir.join("server.pem");
    std::fs::write(&pem, &cert).unwrap();
    let trust = dir.join("trust.p12");
    let _ = std::fs::remove_file(&trust);
    keytool(&[
        "-importcert",
        "-noprompt",
        "-alias",
        "rust",
        "-file",
        path(&pem),
        "-keystore",
        path(&trust),
        "-storetype",
        "PKCS12",
        "-storepass",
        "changeit",
    ]);
    let server = TlsServer::start(rust_server_builder(), &cert, &key);
    let tls = [
        format!("-Djavax.net.ssl.trustStore={}", trust.display()),
        "-Djavax.net.ssl.trustStorePassword=changeit".to_owned(),
        "-Djavax.net.ssl.trustStoreType=PKCS12".to_owned(),
    ];
    let mut with_auth = tls.to_vec();
    with_auth.extend([format!("-Dhessian.user={USER}"), format!("-Dhessian.password={PASSWORD}")]);
    for mode in ["h2", "hybrid", "h1"] {
        let (ok, out) = run_java_client(&java, &java_opts(&with_auth), &server.url("/bench"), mode);
        assert!(ok && out.contains("summary: passed="), "{mode}: {out}");
        assert!(!out.contains("FAIL"), "{mode}: {out}");
    }
    // Caucho's proxy without credentials: the server's 401 reaches it as an error
    let (ok, out) = run_java_client(&java, &java_opts(&tls), &server.url("/bench"), "h2");
    assert!(!ok, "{out}");
    assert!(out.contains("401"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[test]
fn rust_client_calls_the_java_server_over_https_with_basic_auth() {
    let Some(java) = java() else { return };
    let dir = scratch("java-server");
    let store = dir.join("server.p12");
    let pem = dir.join("server.pem");
    let _ = std::fs::remove_file(&store);
    keytool(&[
        "-genkeypair",
        "-alias",
        "java",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1,dns:localhost",
        "-validity",
        "2",
        "-keystore",
        path(&store),
        "-storetype",
        "PKCS12",
        "-storepass",
        "changeit",
        "-keypass",
        "changeit",
    ]);
    keytool(&[
        "-exportcert",
        "-rfc",
        "-alias",
        "java",
        "-keystore",
        path(&store),
        "-storepass",
        "changeit",
        "-file",
        path(&pem),
    ]);
    let cert = std::fs::read_to_string(&pem).unwrap();
    let opts = java_opts(&[
        format!("-Dhttps.keystore={}", store.display()),
        format!("-Dauth.user={USER}"),
        format!("-Dauth.password={PASSWORD}"),
    ]);
    let opts: Vec<&str> = opts.iter().map(String::as_str).collect();
    let mut child =
        java.command_with(&opts, "RpcJavaServer").arg("0").stdin(Stdio::null()).stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port: u16 = line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok()).expect("PORT line");
    let url = format!("https://127.0.0.1:{port}/bench");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rt.block_on(async {
            let w2 = W2Classes::default();
            for dialect in [Dialect::HESSIAN2, Dialect::HESSIAN1, Dialect::HYBRID, Dialect::BURLAP] {
                let proxy = client(&cert).dialect(dialect).basic_auth(USER, PASSWORD).build().proxy(&url).unwrap();
                for _ in 0..3 {
                    let reply = proxy.call("exchange", vec![w2.request()]).await.unwrap();
                    assert!(hessian_demo::same_graph(&reply, &w2.reply()), "{dialect:?}");
                }
                let items = proxy.call("getItems", vec![Value::Int(100)]).await.unwrap();
                assert!(matches!(&items, Value::List(l) if l.items.len() == 100), "{dialect:?}");
            }
            let proxy = client(&cert).basic_auth(USER, "wrong").build().proxy(&url).unwrap();
            let err = proxy.call("getItems", vec![Value::Int(1)]).await.unwrap_err();
            assert!(matches!(&err, Error::Http { status, .. } if status.as_u16() == 401), "{err}");
            let proxy = Client::builder().basic_auth(USER, PASSWORD).build().proxy(&url).unwrap();
            let err = proxy.call("getItems", vec![Value::Int(1)]).await.unwrap_err();
            assert!(matches!(&err, Error::Transport(m) if m.contains("TLS handshake")), "{err}");
        })
    }));
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(p) = result {
        std::panic::resume_unwind(p);
    }
}
