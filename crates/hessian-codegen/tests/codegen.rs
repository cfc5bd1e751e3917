//! `hessian codegen` on the project's own Java classes (`interop/java/src`, compiled by the test
//! kit): the generated Rust is checked in under `tests/generated/` and must be what the
//! generator writes now (from the class directory and from a jar of it); the generated client
//! calls Caucho's skeleton (`RpcJavaServer`, `/bench`); a generated struct crosses to Java and
//! back (`CodegenSample`); and a class with no mapping is an error naming the class and field.
//! Run with `CODEGEN_BLESS=1` to rewrite the checked-in files after a deliberate change.

#[rustfmt::skip]
#[allow(clippy::all)]
#[path = "generated/rpc_bench_service.rs"]
mod bench;
#[rustfmt::skip]
#[allow(clippy::all)]
#[path = "generated/codegen_shapes.rs"]
mod shapes;

use hessian_codegen::{generate, generate_with, Classes, DateType, Error, Options};
use hessian_testkit::java::{java, Java};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

fn classes(java: &Java) -> Classes {
    let mut c = Classes::default();
    c.add_path(java.classes_dir()).expect("read the compiled classes");
    c
}

#[test]
fn the_checked_in_code_is_what_the_generator_writes() {
    let Some(java) = java() else { return };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/generated");
    let from_dir = classes(&java);
    // the same classes from a jar
    let jar = std::env::temp_dir().join(format!("hessian-codegen-{}.jar", std::process::id()));
    let out = std::process::Command::new("jar")
        .arg("cf")
        .arg(&jar)
        .arg("-C")
        .arg(java.classes_dir())
        .arg(".")
        .output()
        .expect("jar (from the JDK)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut from_jar = Classes::default();
    from_jar.add_path(&jar).expect("read the jar");
    let _ = std::fs::remove_file(&jar);
    // the bench service's data has no nulls: its classes are declared non-null (by binary and
    // by simple name), with `hessian::serde::Date` dates; the shapes take the defaults
    let bench_options = Options {
        non_null: ["Address", "Customer", "LineItem", "Money", "Order", "Product"]
            .iter()
            .map(|c| format!("com.squarespace.hopper.types.{c}"))
            .chain(["Item".to_owned()])
            .collect(),
        dates: DateType::HessianDate,
        ..Options::default()
    };
    for (service, file, options) in [
        ("RpcBenchService", "rpc_bench_service.rs", bench_options),
        ("CodegenShapes", "codegen_shapes.rs", Options::default()),
    ] {
        let src = generate_with(&from_dir, service, &options).expect("generate");
        assert_eq!(
            generate_with(&from_jar, service, &options).expect("generate from the jar"),
            src,
            "{service}: jar and directory"
        );
        let path = dir.join(file);
        if std::env::var_os("CODEGEN_BLESS").is_some() {
            std::fs::write(&path, &src).expect("write");
        }
        let checked_in = std::fs::read_to_string(&path).expect("checked-in file");
        assert_eq!(src, checked_in, "{service}: the generator's output changed (CODEGEN_BLESS=1 to accept it)");
    }
}

#[test]
fn types_with_no_mapping_are_errors_naming_class_and_field() {
    let Some(java) = java() else { return };
    let c = classes(&java);
    match generate(&c, "CodegenUnmappable") {
        Err(Error::Unmapped { class, member, reason }) => {
            assert_eq!(class, "org.example.codegen.Ledger");
            assert_eq!(member, "field balance");
            assert!(reason.contains("java.math.BigDecimal"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(generate(&c, "no.such.Service"), Err(Error::NotFound(_))));
    assert!(matches!(generate(&c, "org.example.codegen.Circle"), Err(Error::NotAnInterface(_))));
}

fn money(cents: i32) -> bench::Money {
    bench::Money { cents, currency: "EUR".into() }
}

fn order(id: i64, address: (&str, &str, &str), ks: &[i32], total: i32, placed: i64) -> bench::Order {
    let line = |k: i32| bench::LineItem {
        quantity: k,
        product: bench::Product { sku: format!("SKU-{k:04}"), name: format!("Product {k}"), price: money(k * 1000) },
        total: money(k * k * 1000),
    };
    bench::Order {
        id,
        customer: bench::Customer {
            id: 42,
            name: "Ada Lovelace".into(),
            email: "ada@example.org".into(),
            address: bench::Address {
                street: address.0.into(),
                city: address.1.into(),
                zip: address.2.into(),
                country: "GB".into(),
            },
        },
        lines: ks.iter().map(|&k| line(k)).collect(),
        total: money(total),
        placed: hessian::serde::Date(placed),
    }
}

#[test]
fn the_generated_client_calls_the_java_server() {
    let Some(java) = java() else { return };
    let mut child = java.spawn("RpcJavaServer", &["0"]);
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("PORT line");
    let port: u16 = line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok()).expect("port");
    let url = format!("http://127.0.0.1:{port}/bench");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rt.block_on(async {
            for dialect in
                [hessian_rpc::Dialect::HESSIAN2, hessian_rpc::Dialect::HYBRID, hessian_rpc::Dialect::HESSIAN1]
            {
                let proxy = hessian_rpc::Client::builder().dialect(dialect).build().proxy(&url).unwrap();
                let client = bench::RpcBenchServiceClient::new(proxy);
                let items = client.get_items(100).await.unwrap().expect("a list");
                assert_eq!(items.len(), 100);
                for (i, it) in items.iter().enumerate() {
                    let it = it.as_ref().expect("no null item");
                    assert_eq!(it.name, hessian_testkit::structs::padded("name-", i));
                    assert_eq!((it.id, it.count), (10_000_000_000 + i as i64, i as i32));
                    assert_eq!(it.updated.0 - it.created.0, 86_400_000);
                }
                let request =
                    order(1001, ("12 Analytical Row", "London", "N1 9GU"), &[1, 2, 3], 14000, 1_200_000_000_000);
                let want =
                    order(1002, ("1 Difference Engine Way", "Cambridge", "CB2 1TN"), &[4, 5], 41000, 1_200_000_060_000);
                assert_eq!(client.exchange(request).await.unwrap(), Some(want), "{dialect:?}");
            }
        })
    }));
    let _ = child.kill();
    let _ = child.wait();
    if let Err(p) = result {
        std::panic::resume_unwind(p);
    }
}

fn at(millis: u64) -> std::time::SystemTime {
    std::time::UNIX_EPOCH + std::time::Duration::from_millis(millis)
}

fn sample() -> shapes::Circle {
    let child = shapes::Circle {
        radius: 1.0,
        z_index: None,
        visible: false,
        label: Some("child".into()),
        thumbnail: Some(Vec::new()),
        samples: Some(Vec::new()),
        tags: Some(Default::default()),
        children: Some(Vec::new()),
        parent: None,
        extra: hessian::Value::Null,
        drawn: Some(at(1_200_000_000_000)),
        color: Some(shapes::Color::Blue),
    };
    shapes::Circle {
        radius: 2.5,
        z_index: Some(3),
        visible: true,
        label: Some("disc".into()),
        thumbnail: Some(vec![1, 2, 3]),
        samples: Some(vec![4, 5]),
        tags: Some([("a".to_owned(), Some(10))].into_iter().collect()),
        children: Some(vec![Some(child)]),
        parent: None,
        extra: hessian::Value::Int(7),
        drawn: Some(at(1_200_000_060_000)),
        color: Some(shapes::Color::DarkGreen),
    }
}

#[test]
fn a_generated_struct_crosses_to_java_and_back() {
    let Some(java) = java() else { return };
    let out = java.run("CodegenSample", &["write"], b"");
    let hex = String::from_utf8(out).unwrap();
    let hex = hex.trim();
    let bytes: Vec<u8> = (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
    let got: shapes::Circle = hessian::from_slice(&bytes).expect("Java's Circle decodes into the generated struct");
    assert_eq!(got, sample());
    // and Java reads what the generated struct writes
    let mine = hessian::to_vec(&sample()).expect("encode");
    let hex: String = mine.iter().map(|b| format!("{b:02x}")).collect();
    let out = java.command("CodegenSample").args(["check", &hex]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok", "{}", String::from_utf8_lossy(&out.stderr));
}
