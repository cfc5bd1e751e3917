//! Issue 27 on a real Java service (`com.acme.inventory`, Caucho's `HessianServlet` in Jetty):
//! the code `hessian codegen` writes for it (checked in under `tests/generated/`) decodes nulls
//! in every reference field, in return values and in list elements, both ways; declared exceptions arrive typed with their fields and
//! causes (Rust client of the servlet), and Java's `HessianProxyFactory` catches them with their
//! fields and causes from the Rust server of the generated trait, whose fault bytes are the
//! servlet's; an undeclared exception class stays the generic remote fault, a detail that does
//! not fit is a typed error naming the class, and a null in a field declared non-null names
//! the class and field. Exceptions with a null message, and with null fields of non-`java.lang`
//! types (which Caucho writes after `Throwable`'s), cross both ways with the servlet's bytes. Run with `CODEGEN_BLESS=1` to rewrite the checked-in files.

#[rustfmt::skip]
#[allow(clippy::all)]
#[path = "generated/inventory.rs"]
mod inventory;
#[rustfmt::skip]
#[allow(clippy::all)]
#[path = "generated/inventory_strict.rs"]
#[allow(dead_code)]
mod strict;

use hessian_codegen::{generate_with, Classes, DateType, MapType, Options};
use hessian_rpc::{Client, Error, HessianServer, ServiceError};
use hessian_testkit::java::{java_with_jetty, Java};
use inventory::{
    BatchError, BatchException, GetError, Inventory, InventoryClient, Item, NotFoundException, RestockError,
    StockException, Supplier,
};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn options() -> Options {
    Options { maps: MapType::Index, ..Options::default() }
}

fn strict_options() -> Options {
    Options {
        non_null: vec!["Item.added".into(), "com.acme.inventory.Supplier".into()],
        boxed_non_null: false,
        dates: DateType::SystemTime,
        maps: MapType::Hash,
    }
}

#[test]
fn the_checked_in_inventory_code_is_what_the_generator_writes() {
    let Some(java) = java_with_jetty() else { return };
    let mut classes = Classes::default();
    classes.add_path(&java.classes_dir().join("com/acme/inventory")).expect("read the classes");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/generated");
    for (options, file) in [(options(), "inventory.rs"), (strict_options(), "inventory_strict.rs")] {
        let src = generate_with(&classes, "com.acme.inventory.Inventory", &options).expect("generate");
        let path = dir.join(file);
        if std::env::var_os("CODEGEN_BLESS").is_some() {
            std::fs::write(&path, &src).expect("write");
        }
        let checked_in = std::fs::read_to_string(&path).expect("checked-in file");
        assert_eq!(src, checked_in, "{file}: the generator's output changed (CODEGEN_BLESS=1 to accept it)");
    }
    let bad = Options { non_null: vec!["Item.nosuch".into()], ..Options::default() };
    match generate_with(&classes, "com.acme.inventory.Inventory", &bad) {
        Err(hessian_codegen::Error::UnknownNonNull(n)) => assert_eq!(n, "Item.nosuch"),
        other => panic!("{other:?}"),
    }
}

/// A Java process that prints `PORT n`, killed on drop.
struct Server(Child, u16);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn jetty(java: &Java) -> Server {
    let mut child = java.spawn("com.acme.inventory.InventoryJetty", &["0"]);
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("PORT line");
    let port = line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok());
    let server = Server(child, port.unwrap_or(0));
    assert!(server.1 != 0, "InventoryJetty did not print its port: {line:?}");
    server
}

fn at(millis: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(millis)
}

/// `InventoryImpl.item(id)`: item 4 has null in every reference field.
fn item(id: i64) -> Item {
    if id == 4 {
        return Item {
            id,
            price: 0.5,
            active: false,
            reorder_level: None,
            name: None,
            added: None,
            supplier: None,
            tags: None,
        };
    }
    Item {
        id,
        price: 2.5 * id as f64,
        active: true,
        reorder_level: Some(10),
        name: Some(format!("widget {id}")),
        added: Some(at(1_700_000_000_000 + id as u64)),
        supplier: Some(Supplier { name: Some("Acme".into()), country: Some("NL".into()) }),
        tags: Some(vec![Some("blue".into()), Some("small".into())]),
    }
}

/// The Rust implementation of the generated trait, answering as `InventoryImpl` does.
struct RustInventory;

impl Inventory for RustInventory {
    async fn get(&self, id: i64) -> Result<Option<Item>, GetError> {
        match id {
            1 | 2 | 4 => Ok(Some(item(id))),
            // Java's `new NotFoundException(0, null)`: a null message
            0 => Err(NotFoundException { id, message: None, cause: None }.into()),
            i if i < 0 => Err(ServiceError::illegal_state(format!("negative id {id}")).into()),
            // an exception class the Java interface does not declare
            7 => Err(ServiceError::new("com.acme.inventory.AuditException", "audit log <full>").into()),
            // a declared class whose detail does not fit the declared fields
            8 => {
                #[derive(serde::Serialize)]
                #[serde(rename = "com.acme.inventory.NotFoundException")]
                struct Wrong {
                    id: String,
                }
                let e = ServiceError::new("com.acme.inventory.NotFoundException", "wrong")
                    .with_detail(&Wrong { id: "eight".into() })
                    .expect("a struct");
                Err(e.into())
            }
            _ => Err(not_found(id).into()),
        }
    }

    async fn search(&self, query: String, limit: i32) -> Result<Option<Vec<Option<Item>>>, ServiceError> {
        Ok(Some(
            [1, 2, 4]
                .into_iter()
                .map(item)
                .filter(|it| query.is_empty() || it.name.as_deref().is_some_and(|n| n.contains(&query)))
                .take(usize::try_from(limit).unwrap_or(0))
                .map(Some)
                .collect(),
        ))
    }

    async fn restock(&self, id: i64, quantity: i32) -> Result<(), RestockError> {
        if ![1, 2, 4].contains(&id) {
            return Err(not_found(id).into());
        }
        if quantity < 0 {
            return Err(StockException {
                requested: quantity,
                message: Some(format!("cannot restock {quantity} < 0")),
                cause: Some(Box::new(ServiceError::illegal_argument("negative quantity"))),
            }
            .into());
        }
        Ok(())
    }

    async fn echo(&self, item: Item) -> Result<Option<Item>, ServiceError> {
        Ok(Some(item))
    }

    async fn counts(&self) -> Result<Option<hessian_rpc::indexmap::IndexMap<String, Option<i32>>>, ServiceError> {
        Ok(Some(
            [("zebra".to_owned(), Some(3)), ("apple".to_owned(), None), ("mango".to_owned(), Some(7))]
                .into_iter()
                .collect(),
        ))
    }

    async fn find(&self, name: String) -> Result<Option<Item>, ServiceError> {
        Ok([1, 2, 4].into_iter().map(item).find(|it| it.name.as_deref() == Some(name.as_str())))
    }

    async fn pick(&self) -> Result<Option<Vec<Option<Item>>>, ServiceError> {
        Ok(Some(vec![Some(item(1)), None, Some(item(4))]))
    }

    async fn batch(&self, count: i32) -> Result<(), BatchError> {
        Err(batch_exception(count).into())
    }
}

/// `InventoryImpl.batch(count)`'s exception: a null supplier, and null ids or ids with a null.
fn batch_exception(count: i32) -> BatchException {
    if count == 0 {
        return BatchException {
            count,
            note: Some("nothing to do".into()),
            supplier: None,
            ids: None,
            message: Some("empty batch".into()),
            cause: None,
        };
    }
    BatchException {
        count,
        note: None,
        supplier: None,
        ids: Some(vec![Some("a".into()), None]),
        message: Some(format!("batch of {count} failed")),
        cause: None,
    }
}

fn not_found(id: i64) -> NotFoundException {
    NotFoundException { id, message: Some(format!("no item {id} <unknown id & not in stock>")), cause: None }
}

/// What a client of either server must see.
/// The Rust implementation of the generated trait, served at `/inventory` on a free port.
async fn rust_server() -> hessian_rpc::RunningServer {
    HessianServer::builder()
        .mount("/inventory", RustInventory.into_service())
        .build()
        .bind("127.0.0.1:0")
        .await
        .unwrap()
}

async fn check_client(client: &InventoryClient, server: &str) {
    assert_eq!(client.get(1).await.unwrap(), Some(item(1)), "{server}");
    assert_eq!(client.get(4).await.unwrap(), Some(item(4)), "{server}: nulls in every reference field");
    let all = client.search(String::new(), 10).await.unwrap();
    assert_eq!(all, Some(vec![Some(item(1)), Some(item(2)), Some(item(4))]), "{server}");
    // a method that returns null, and a list with a null element
    assert_eq!(client.find("nope".into()).await.unwrap(), None, "{server}: find returns null");
    assert_eq!(client.find("widget 2".into()).await.unwrap(), Some(item(2)), "{server}");
    assert_eq!(client.pick().await.unwrap(), Some(vec![Some(item(1)), None, Some(item(4))]), "{server}: pick");
    // an exception whose message is null: None, not "null" or ""
    match client.get(0).await {
        Err(GetError::NotFoundException(e)) => {
            assert_eq!((e.id, e.message.as_deref()), (0, None), "{server}");
            assert_eq!(e.to_string(), "com.acme.inventory.NotFoundException", "{server}");
        }
        other => panic!("{server}: {other:?}"),
    }
    // exceptions with null fields of non-java.lang types (and a list holding a null)
    for count in [0, 2] {
        match client.batch(count).await {
            Err(BatchError::BatchException(e)) => assert_eq!(e, batch_exception(count), "{server}"),
            other => panic!("{server}: {other:?}"),
        }
    }
    let mut half = item(2);
    half.supplier = Some(Supplier { name: Some("Acme".into()), country: None });
    half.reorder_level = None;
    for it in [half, item(4)] {
        assert_eq!(client.echo(it.clone()).await.unwrap(), Some(it), "{server}: echo");
    }
    let counts = client.counts().await.unwrap().expect("counts");
    let keys: Vec<&str> = counts.keys().map(String::as_str).collect();
    assert_eq!(keys, ["zebra", "apple", "mango"], "{server}: a LinkedHashMap keeps its order");
    assert_eq!(counts["apple"], None);
    match client.get(42).await {
        Err(GetError::NotFoundException(e)) => {
            assert_eq!(e.id, 42, "{server}");
            assert_eq!(e.message.as_deref(), Some("no item 42 <unknown id & not in stock>"), "{server}");
            assert_eq!(e.cause, None, "{server}");
        }
        other => panic!("{server}: {other:?}"),
    }
    // an exception class `get` does not declare: the generic remote fault, with all Java sent
    match client.get(-5).await {
        Err(GetError::Rpc(Error::Fault(f))) => {
            assert_eq!(f.exception_class(), Some("java.lang.IllegalStateException"), "{server}");
            let e = f.exception().unwrap();
            assert_eq!(e.message.as_deref(), Some("negative id -5"), "{server}");
            if server == "servlet" {
                assert_eq!(e.stack_trace[0].declaring_class, "com.acme.inventory.InventoryImpl");
            }
        }
        other => panic!("{server}: {other:?}"),
    }
    match client.restock(1, -3).await {
        Err(RestockError::StockException(e)) => {
            assert_eq!(e.requested, -3, "{server}");
            assert_eq!(e.message.as_deref(), Some("cannot restock -3 < 0"), "{server}");
            let cause = e.cause.as_deref().expect("a cause");
            assert_eq!(
                (cause.class(), cause.message()),
                ("java.lang.IllegalArgumentException", Some("negative quantity")),
                "{server}"
            );
            assert!(cause.cause().is_none(), "{server}");
            assert_eq!(
                e.to_string(),
                "com.acme.inventory.StockException: cannot restock -3 < 0 (caused by \
                 java.lang.IllegalArgumentException: negative quantity)"
            );
        }
        other => panic!("{server}: {other:?}"),
    }
    match client.restock(9, 1).await {
        Err(RestockError::NotFoundException(e)) => assert_eq!(e.id, 9, "{server}"),
        other => panic!("{server}: {other:?}"),
    }
    client.restock(1, 5).await.unwrap();
}

#[test]
fn the_generated_client_calls_the_servlet_and_the_rust_server() {
    let Some(java) = java_with_jetty() else { return };
    let servlet = jetty(&java);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let rust = rust_server().await;
        let urls = [("servlet", format!("http://127.0.0.1:{}/inventory", servlet.1)), ("rust", rust.url("/inventory"))];
        for (name, url) in &urls {
            let client = InventoryClient::new(Client::new().proxy(url).unwrap());
            check_client(&client, name).await;
            // the fault of an exception with a null message: its message is None, as is the
            // exception object's detailMessage
            let proxy = Client::new().proxy(url).unwrap();
            let err = proxy.call("get", vec![hessian::Value::Long(0)]).await.unwrap_err();
            let f = err.fault().unwrap_or_else(|| panic!("{name}: {err:?}"));
            assert_eq!(f.message(), None, "{name}");
            assert_eq!(f.exception().unwrap().message, None, "{name}");
            assert_eq!(f.to_string(), "ServiceException (com.acme.inventory.NotFoundException)", "{name}");
        }
        // Bad input, from the Rust server: an exception class `get` does not declare is the
        // generic remote fault with everything sent; a declared class whose detail does not
        // fit its fields is a typed error naming the class and field.
        let client = InventoryClient::new(Client::new().proxy(&rust.url("/inventory")).unwrap());
        match client.get(7).await {
            Err(GetError::Rpc(Error::Fault(f))) => {
                assert_eq!(f.exception_class(), Some("com.acme.inventory.AuditException"));
                assert_eq!(f.message(), Some("audit log &lt;full&gt;"));
                let e = f.exception().unwrap();
                assert_eq!(e.message.as_deref(), Some("audit log <full>"));
            }
            other => panic!("{other:?}"),
        }
        match client.get(8).await {
            Err(GetError::Rpc(Error::Exception { fault, error })) => {
                assert_eq!(fault.exception_class(), Some("com.acme.inventory.NotFoundException"));
                let text = error.to_string();
                assert!(text.contains("com.acme.inventory.NotFoundException"), "{text}");
                assert!(text.contains("NotFoundException.id: invalid type: expected i64, found string"), "{text}");
            }
            other => panic!("{other:?}"),
        }
        // a null where the Rust server's parameter is a plain String says null, and which argument
        let proxy = Client::new().proxy(&rust.url("/inventory")).unwrap();
        let err = proxy.call("search", vec![hessian::Value::Null, hessian::Value::Int(1)]).await.unwrap_err();
        let message = err.fault().and_then(|f| f.message()).unwrap_or_default().to_owned();
        assert!(message.starts_with("search: argument 1 of 2: invalid type: expected a string, found null"), "{err}");
        // and a null item's reference fields are fine
        let nulls = hessian::serde::to_value(&item(4)).unwrap();
        let back = proxy.call("echo", vec![nulls.clone()]).await.unwrap();
        assert_eq!(hessian::serde::from_value::<Item>(back).unwrap(), item(4));
        rust.shutdown().await;
    });
}

#[test]
fn a_null_in_a_field_declared_non_null_names_the_class_and_field() {
    let Some(java) = java_with_jetty() else { return };
    let servlet = jetty(&java);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let url = format!("http://127.0.0.1:{}/inventory", servlet.1);
        let client = strict::InventoryClient::new(Client::new().proxy(&url).unwrap());
        let it = client.get(1).await.unwrap().expect("item 1");
        assert_eq!(it.supplier.as_ref().map(|s| s.name.as_str()), Some("Acme"));
        let err = client.get(4).await.unwrap_err();
        let strict::GetError::Rpc(Error::Reply(e)) = &err else { panic!("{err:?}") };
        assert_eq!(e.path().as_deref(), Some("Item.added"), "{e}");
        let text = e.to_string();
        assert!(text.starts_with("Item.added: invalid type: expected a date, found null at byte offset "), "{text}");
        // the whole list fails on the one item, and says which
        let err = client.search(String::new(), 10).await.unwrap_err();
        assert!(err.to_string().contains("[2] Item.added: invalid type: expected a date, found null"), "{err}");
    });
}

async fn post(addr: SocketAddr, body: &[u8]) -> Vec<u8> {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head =
        format!("POST /inventory HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let start = out.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4).unwrap_or(out.len());
    let chunked = out[..start].to_ascii_lowercase().windows(26).any(|w| w == b"transfer-encoding: chunked");
    let mut body = out[start..].to_vec();
    if chunked {
        let (mut b, mut plain) = (&body[..], Vec::new());
        while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
            let len = usize::from_str_radix(std::str::from_utf8(&b[..eol]).unwrap().trim(), 16).unwrap();
            if len == 0 {
                break;
            }
            plain.extend_from_slice(&b[eol + 2..eol + 2 + len]);
            b = &b[eol + 2 + len + 2..];
        }
        body = plain;
    }
    body
}

#[test]
fn the_rust_servers_faults_and_values_are_the_servlets_bytes() {
    let Some(java) = java_with_jetty() else { return };
    let servlet = jetty(&java);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let rust = rust_server().await;
        let rust_addr: SocketAddr = rust.url("/").trim_start_matches("http://").trim_end_matches('/').parse().unwrap();
        let java_addr: SocketAddr = format!("127.0.0.1:{}", servlet.1).parse().unwrap();
        let calls: [(&str, Vec<hessian::Value>); 12] = [
            ("get", vec![hessian::Value::Long(42)]),
            ("restock", vec![hessian::Value::Long(1), hessian::Value::Int(-3)]),
            ("restock", vec![hessian::Value::Long(9), hessian::Value::Int(1)]),
            ("get", vec![hessian::Value::Long(1)]),
            ("get", vec![hessian::Value::Long(4)]),
            ("search", vec![hessian::Value::string(""), hessian::Value::Int(10)]),
            // a null message, null fields after Throwable's, a null return value and element
            ("get", vec![hessian::Value::Long(0)]),
            ("batch", vec![hessian::Value::Int(0)]),
            ("batch", vec![hessian::Value::Int(2)]),
            ("find", vec![hessian::Value::string("nope")]),
            ("find", vec![hessian::Value::string("widget 1")]),
            ("pick", vec![]),
        ];
        for (method, args) in calls {
            let call = hessian::Call::new(method, args);
            for dialect in [hessian_rpc::Dialect::HESSIAN2, hessian_rpc::Dialect::HYBRID] {
                let body = hessian_rpc::protocol::encode_call(dialect, &call).unwrap();
                let from_java = post(java_addr, &body).await;
                let from_rust = post(rust_addr, &body).await;
                assert!(
                    from_java.starts_with(b"H\x02\x00R") || from_java.starts_with(b"H\x02\x00F"),
                    "{}",
                    hex(&from_java)
                );
                assert_eq!(
                    hex(&from_rust),
                    hex(&from_java),
                    "{method}{:?} ({dialect:?}): the Rust server's reply differs from the servlet's",
                    call.args
                );
            }
        }
        rust.shutdown().await;
    });
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn java_catches_the_rust_servers_exceptions_with_their_fields_and_causes() {
    let Some(java) = java_with_jetty() else { return };
    let servlet = jetty(&java);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let rust = rt.block_on(rust_server());
    // the check passes against the servlet itself, and then against the Rust server
    for url in [format!("http://127.0.0.1:{}/inventory", servlet.1), rust.url("/inventory")] {
        let out = java.try_run("com.acme.inventory.InventoryCheck", &[&url], b"");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.trim_end().ends_with("done"),
            "InventoryCheck of {url} failed:\n{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("ok NotFoundException id 42"), "{text}");
        assert!(text.contains("ok StockException requested -3"), "{text}");
        assert!(text.contains("ok cause java.lang.IllegalArgumentException: negative quantity"), "{text}");
        assert!(text.contains("ok null message id 0 null"), "{text}");
        assert!(text.contains("ok BatchException with nulls count 0"), "{text}");
        assert!(text.contains("ok BatchException ids [a, null]"), "{text}");
        assert!(text.contains("ok find returns null") && text.contains("ok pick with a null"), "{text}");
    }
    rt.block_on(rust.shutdown());
}

#[test]
fn the_blocking_client_returns_the_declared_exceptions_too() {
    let Some(java) = java_with_jetty() else { return };
    let servlet = jetty(&java);
    let client = hessian_rpc::BlockingClient::new();
    let url = format!("http://127.0.0.1:{}/inventory", servlet.1);
    let inventory = inventory::InventoryBlockingClient::new(client.proxy(&url).unwrap());
    assert_eq!(inventory.get(4).unwrap(), Some(item(4)));
    match inventory.get(42) {
        Err(GetError::NotFoundException(e)) => assert_eq!(e.id, 42),
        other => panic!("{other:?}"),
    }
    match inventory.restock(1, -3) {
        Err(RestockError::StockException(e)) => {
            assert_eq!(e.requested, -3);
            assert_eq!(e.cause.map(|c| c.class().to_owned()).as_deref(), Some("java.lang.IllegalArgumentException"));
        }
        other => panic!("{other:?}"),
    }
}
