//! Serde benchmarks: W1 (5000 items) and W3 (1 and 10,000 Money) encoded and decoded through
//! serde with this crate, `bincode`, `rmp-serde` and `serde_json`, and through `hessian_rs`
//! (which has no serde support: its `Value` tree is built from, and read back into, the same
//! structs inside the timed loop). W3 also compares this crate's derived codec, hand-written
//! codec (`Externalizable`, cents only) and the flattest form (the bare int).
//!
//! Run: `cargo bench -p hessian-bench --bench serde -- --warm-up-time 1 --measurement-time 3`.
//! The sizes of every encoding are printed first.
//!
//! After the criterion groups the same run measures the Java reference when Java is installed:
//! `interop/java/src/SerdeTiming.java` (Caucho's `Hessian2Output`/`Hessian2Input`, and Hessian 1
//! for W1) under the full JIT (`Java::run_timing`), 3 s warm-up and 3 s of samples per case, about
//! 50 s in all; its lines are printed under "Java reference", the Hessian 2 ones followed by this
//! crate's criterion median of the same run and the ratio. It runs in benchmark mode only (not under `cargo test`), and
//! with a criterion filter only when the filter is part of `serde_java_reference` (e.g. `java`).
//! `SERDE_JAVA_ARGS="WARMUP_S MEASURE_S [jdk]"` changes its durations (and with `jdk` uses the JDK's
//! locked memory streams).
//!
//! `serde_money_1_*`, `serde_w2_request_*` and `serde_w2_reply_*` measure the fixed cost of one
//! message (one W3 `Money`, the W2 `Order` request and reply) against rmp-serde with named fields
//! (`to_vec_named`) and bincode; after the groups a table of ratios of the medians of this run is
//! printed (e.g. `-- --warm-up-time 1 --measurement-time 2 'money_1|w2_|w1'`).
//!
//! `serde_w2_call_*` and `serde_w2_reply_message_*` compare the W2 call and reply as plain
//! Hessian 2 messages with their referring form under type negotiation (`docs/negotiation.md`).
//!
//! `--features mimalloc` runs the same benchmarks with mimalloc as the global allocator (decoding
//! W1 is mostly malloc/free of the owned strings under glibc); the allocator is printed first.

use criterion::{black_box, criterion_group, Criterion};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The global allocator these figures were measured under.
const ALLOCATOR: &str = if cfg!(feature = "mimalloc") { "mimalloc" } else { "system (glibc malloc)" };
use hessian_testkit::structs::{self, Item, Money, MoneyCents};
use std::collections::HashMap;

mod hrs {
    //! Conversions between the workload structs and `hessian_rs::Value`.
    use super::*;
    use hessian_rs::value::{List, Map};
    use hessian_rs::Value;

    fn s(x: &str) -> Value {
        Value::String(x.to_owned())
    }

    pub fn item(i: &Item) -> Value {
        let mut m = HashMap::with_capacity(10);
        m.insert(s("name"), s(&i.name));
        m.insert(s("street"), s(&i.street));
        m.insert(s("city"), s(&i.city));
        m.insert(s("comment"), s(&i.comment));
        m.insert(s("id"), Value::Long(i.id));
        m.insert(s("count"), Value::Int(i.count));
        m.insert(s("price"), Value::Double(i.price));
        m.insert(s("ratio"), Value::Double(f64::from(i.ratio)));
        m.insert(s("created"), Value::Date(i.created.0));
        m.insert(s("updated"), Value::Date(i.updated.0));
        Value::Map(Map::from(("org.example.remoting.Item", m)))
    }

    pub fn items(v: &[Item]) -> Value {
        Value::List(List::from(v.iter().map(item).collect::<Vec<_>>()))
    }

    fn fields(v: &Value) -> &HashMap<Value, Value> {
        match v {
            Value::Map(m) => m.value(),
            _ => panic!("hessian_rs: not a map"),
        }
    }

    pub fn to_items(v: &Value) -> Vec<Item> {
        let Value::List(l) = v else { panic!("hessian_rs: not a list") };
        l.value()
            .iter()
            .map(|o| {
                let mut it = Item::of(0);
                for (k, v) in fields(o) {
                    let Value::String(k) = k else { continue };
                    match (k.as_str(), v) {
                        ("name", Value::String(x)) => it.name = x.clone(),
                        ("street", Value::String(x)) => it.street = x.clone(),
                        ("city", Value::String(x)) => it.city = x.clone(),
                        ("comment", Value::String(x)) => it.comment = x.clone(),
                        ("id", Value::Long(x)) => it.id = *x,
                        ("count", Value::Int(x)) => it.count = *x,
                        ("price", Value::Double(x)) => it.price = *x,
                        ("ratio", Value::Double(x)) => it.ratio = *x as f32,
                        ("created", Value::Date(x)) => it.created.0 = *x,
                        ("updated", Value::Date(x)) => it.updated.0 = *x,
                        _ => {}
                    }
                }
                it
            })
            .collect()
    }

    pub fn money(m: &Money) -> Value {
        let mut f = HashMap::with_capacity(2);
        f.insert(s("cents"), Value::Int(m.cents));
        f.insert(s("text"), s(&m.text));
        Value::Map(Map::from(("Money", f)))
    }

    pub fn moneys(v: &[Money]) -> Value {
        Value::List(List::from(v.iter().map(money).collect::<Vec<_>>()))
    }

    pub fn to_money(v: &Value) -> Money {
        let mut m = Money { cents: 0, text: String::new() };
        for (k, v) in fields(v) {
            match (k, v) {
                (Value::String(k), Value::Int(x)) if k == "cents" => m.cents = *x,
                (Value::String(k), Value::String(x)) if k == "text" => m.text = x.clone(),
                _ => {}
            }
        }
        m
    }

    pub fn to_moneys(v: &Value) -> Vec<Money> {
        let Value::List(l) = v else { panic!("hessian_rs: not a list") };
        l.value().iter().map(to_money).collect()
    }
}

fn sizes() {
    let items = structs::items(5000);
    let money = structs::money();
    let moneys = structs::moneys(10000);
    let hand: Vec<MoneyCents> = moneys.iter().map(|m| MoneyCents::of(m.cents)).collect();
    let flat: Vec<i32> = moneys.iter().map(|m| m.cents).collect();
    eprintln!("allocator: {ALLOCATOR}");
    eprintln!("encoded sizes (bytes):");
    eprintln!(
        "  W1 5000: hessian {}  bincode {}  rmp-serde {}  serde_json {}  hessian_rs {}",
        hessian::to_vec(&items).unwrap().len(),
        bincode::serialize(&items).unwrap().len(),
        rmp_serde::to_vec(&items).unwrap().len(),
        serde_json::to_vec(&items).unwrap().len(),
        hessian_rs::to_vec(&hrs::items(&items)).unwrap().len(),
    );
    eprintln!(
        "  W3 1: hessian derived {}  hand-written {}  flat {}  bincode {}  rmp-serde {}  serde_json {}  hessian_rs {}",
        hessian::to_vec(&money).unwrap().len(),
        hessian::to_vec(&MoneyCents::of(money.cents)).unwrap().len(),
        hessian::to_vec(&money.cents).unwrap().len(),
        bincode::serialize(&money).unwrap().len(),
        rmp_serde::to_vec(&money).unwrap().len(),
        serde_json::to_vec(&money).unwrap().len(),
        hessian_rs::to_vec(&hrs::money(&money)).unwrap().len(),
    );
    eprintln!(
        "  W3 10000: hessian derived {}  hand-written {}  flat {}  bincode {}  rmp-serde {}  serde_json {}  hessian_rs {}",
        hessian::to_vec(&moneys).unwrap().len(),
        hessian::to_vec(&hand).unwrap().len(),
        hessian::to_vec(&flat).unwrap().len(),
        bincode::serialize(&moneys).unwrap().len(),
        rmp_serde::to_vec(&moneys).unwrap().len(),
        serde_json::to_vec(&moneys).unwrap().len(),
        hessian_rs::to_vec(&hrs::moneys(&moneys)).unwrap().len(),
    );
}

fn w1(c: &mut Criterion) {
    sizes();
    let items = structs::items(5000);
    let mut g = c.benchmark_group("serde_w1_encode_5000");
    g.bench_function("hessian", |b| b.iter(|| hessian::to_vec(black_box(&items)).unwrap()));
    g.bench_function("bincode", |b| b.iter(|| bincode::serialize(black_box(&items)).unwrap()));
    g.bench_function("rmp_serde", |b| b.iter(|| rmp_serde::to_vec(black_box(&items)).unwrap()));
    g.bench_function("serde_json", |b| b.iter(|| serde_json::to_vec(black_box(&items)).unwrap()));
    g.bench_function("hessian_rs", |b| b.iter(|| hessian_rs::to_vec(&hrs::items(black_box(&items))).unwrap()));
    g.finish();

    let h = hessian::to_vec(&items).unwrap();
    let bc = bincode::serialize(&items).unwrap();
    let mp = rmp_serde::to_vec(&items).unwrap();
    let js = serde_json::to_vec(&items).unwrap();
    let hr = hessian_rs::to_vec(&hrs::items(&items)).unwrap();
    assert_eq!(hrs::to_items(&hessian_rs::from_slice(&hr).unwrap()).len(), items.len());
    let mut g = c.benchmark_group("serde_w1_decode_5000");
    g.bench_function("hessian", |b| b.iter(|| hessian::from_slice::<Vec<Item>>(black_box(&h)).unwrap()));
    g.bench_function("bincode", |b| b.iter(|| bincode::deserialize::<Vec<Item>>(black_box(&bc)).unwrap()));
    g.bench_function("rmp_serde", |b| b.iter(|| rmp_serde::from_slice::<Vec<Item>>(black_box(&mp)).unwrap()));
    g.bench_function("serde_json", |b| b.iter(|| serde_json::from_slice::<Vec<Item>>(black_box(&js)).unwrap()));
    g.bench_function("hessian_rs", |b| b.iter(|| hrs::to_items(&hessian_rs::from_slice(black_box(&hr)).unwrap())));
    g.finish();
}

fn w3(c: &mut Criterion) {
    let one = structs::money();
    let one_hand = MoneyCents::of(one.cents);
    let many = structs::moneys(10000);
    let many_hand: Vec<MoneyCents> = many.iter().map(|m| MoneyCents::of(m.cents)).collect();
    let many_flat: Vec<i32> = many.iter().map(|m| m.cents).collect();

    let mut g = c.benchmark_group("serde_w3_encode_1");
    g.bench_function("hessian_derived", |b| b.iter(|| hessian::to_vec(black_box(&one)).unwrap()));
    g.bench_function("hessian_hand_written", |b| b.iter(|| hessian::to_vec(black_box(&one_hand)).unwrap()));
    g.bench_function("hessian_flat", |b| b.iter(|| hessian::to_vec(black_box(&one.cents)).unwrap()));
    g.bench_function("bincode", |b| b.iter(|| bincode::serialize(black_box(&one)).unwrap()));
    g.bench_function("rmp_serde", |b| b.iter(|| rmp_serde::to_vec(black_box(&one)).unwrap()));
    g.bench_function("serde_json", |b| b.iter(|| serde_json::to_vec(black_box(&one)).unwrap()));
    g.bench_function("hessian_rs", |b| b.iter(|| hessian_rs::to_vec(&hrs::money(black_box(&one))).unwrap()));
    g.finish();

    let mut g = c.benchmark_group("serde_w3_decode_1");
    let (d, hw, fl) =
        (hessian::to_vec(&one).unwrap(), hessian::to_vec(&one_hand).unwrap(), hessian::to_vec(&one.cents).unwrap());
    let (bc, mp, js, hr) = (
        bincode::serialize(&one).unwrap(),
        rmp_serde::to_vec(&one).unwrap(),
        serde_json::to_vec(&one).unwrap(),
        hessian_rs::to_vec(&hrs::money(&one)).unwrap(),
    );
    g.bench_function("hessian_derived", |b| b.iter(|| hessian::from_slice::<Money>(black_box(&d)).unwrap()));
    g.bench_function("hessian_hand_written", |b| b.iter(|| hessian::from_slice::<MoneyCents>(black_box(&hw)).unwrap()));
    g.bench_function("hessian_flat", |b| b.iter(|| hessian::from_slice::<i32>(black_box(&fl)).unwrap()));
    g.bench_function("bincode", |b| b.iter(|| bincode::deserialize::<Money>(black_box(&bc)).unwrap()));
    g.bench_function("rmp_serde", |b| b.iter(|| rmp_serde::from_slice::<Money>(black_box(&mp)).unwrap()));
    g.bench_function("serde_json", |b| b.iter(|| serde_json::from_slice::<Money>(black_box(&js)).unwrap()));
    g.bench_function("hessian_rs", |b| b.iter(|| hrs::to_money(&hessian_rs::from_slice(black_box(&hr)).unwrap())));
    g.finish();

    let mut g = c.benchmark_group("serde_w3_encode_10000");
    g.bench_function("hessian_derived", |b| b.iter(|| hessian::to_vec(black_box(&many)).unwrap()));
    g.bench_function("hessian_hand_written", |b| b.iter(|| hessian::to_vec(black_box(&many_hand)).unwrap()));
    g.bench_function("hessian_flat", |b| b.iter(|| hessian::to_vec(black_box(&many_flat)).unwrap()));
    g.bench_function("bincode", |b| b.iter(|| bincode::serialize(black_box(&many)).unwrap()));
    g.bench_function("rmp_serde", |b| b.iter(|| rmp_serde::to_vec(black_box(&many)).unwrap()));
    g.bench_function("serde_json", |b| b.iter(|| serde_json::to_vec(black_box(&many)).unwrap()));
    g.bench_function("hessian_rs", |b| b.iter(|| hessian_rs::to_vec(&hrs::moneys(black_box(&many))).unwrap()));
    g.finish();

    let mut g = c.benchmark_group("serde_w3_decode_10000");
    let (d, hw, fl) =
        (hessian::to_vec(&many).unwrap(), hessian::to_vec(&many_hand).unwrap(), hessian::to_vec(&many_flat).unwrap());
    let (bc, mp, js, hr) = (
        bincode::serialize(&many).unwrap(),
        rmp_serde::to_vec(&many).unwrap(),
        serde_json::to_vec(&many).unwrap(),
        hessian_rs::to_vec(&hrs::moneys(&many)).unwrap(),
    );
    assert!(hrs::to_moneys(&hessian_rs::from_slice(&hr).unwrap()) == many, "hessian_rs round trip of W3");
    g.bench_function("hessian_derived", |b| b.iter(|| hessian::from_slice::<Vec<Money>>(black_box(&d)).unwrap()));
    g.bench_function("hessian_hand_written", |b| {
        b.iter(|| hessian::from_slice::<Vec<MoneyCents>>(black_box(&hw)).unwrap())
    });
    g.bench_function("hessian_flat", |b| b.iter(|| hessian::from_slice::<Vec<i32>>(black_box(&fl)).unwrap()));
    g.bench_function("bincode", |b| b.iter(|| bincode::deserialize::<Vec<Money>>(black_box(&bc)).unwrap()));
    g.bench_function("rmp_serde", |b| b.iter(|| rmp_serde::from_slice::<Vec<Money>>(black_box(&mp)).unwrap()));
    g.bench_function("serde_json", |b| b.iter(|| serde_json::from_slice::<Vec<Money>>(black_box(&js)).unwrap()));
    g.bench_function("hessian_rs", |b| b.iter(|| hrs::to_moneys(&hessian_rs::from_slice(black_box(&hr)).unwrap())));
    g.finish();
}

/// Whether this run benchmarks (not `cargo test`'s single pass or a listing) and its criterion
/// filter, if any, selects the pseudo-benchmark `serde_java_reference`.
fn java_reference_selected() -> bool {
    const WITH_VALUE: &[&str] = &[
        "-c",
        "--color",
        "--colour",
        "-s",
        "--save-baseline",
        "-b",
        "--baseline",
        "--baseline-lenient",
        "--format",
        "--profile-time",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--plotting-backend",
        "--output-format",
    ];
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag || a.starts_with(&format!("{flag}=")));
    if !has("--bench") || has("--test") || has("--list") || has("--profile-time") {
        return false;
    }
    let mut filter = None;
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        if WITH_VALUE.contains(&a.as_str()) {
            rest.next();
        } else if !a.starts_with('-') {
            filter = Some(a.as_str());
        }
    }
    match filter {
        None => true,
        Some(f) => "serde_java_reference".contains(f),
    }
}

/// This crate's criterion median (ns) for `group/function`, if this process measured it.
fn rust_median_ns(group: &str, function: &str, since: std::time::SystemTime) -> Option<f64> {
    let dir = std::env::var_os("CRITERION_HOME").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| hessian_testkit::java::repo_root().join("target"))
            .join("criterion")
    });
    let path = dir.join(group).join(function).join("new/estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None; // left by an earlier run
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    v["median"]["point_estimate"].as_f64()
}

/// The Java reference, JIT-warmed, on this machine: runs `SerdeTiming` and prints its lines, each
/// followed by this crate's median from the criterion groups above (Hessian 2, same data).
fn java_reference(started: std::time::SystemTime) {
    if !java_reference_selected() {
        return;
    }
    let Some(java) = hessian_testkit::java::java() else { return };
    let args = std::env::var("SERDE_JAVA_ARGS").unwrap_or_default();
    let args: Vec<&str> = args.split_whitespace().collect();
    println!(
        "\nJava reference (serde_java_reference): Caucho hessian 4.0.38, full JIT, running SerdeTiming {args:?} …"
    );
    let out = java.run_timing("SerdeTiming", &args);
    let ours: &[(&str, &str, &str)] = &[
        ("java w1-5000 h2 encode ", "serde_w1_encode_5000", "hessian"),
        ("java w1-5000 h2 decode ", "serde_w1_decode_5000", "hessian"),
        ("java w3-1 h2 encode ", "serde_w3_encode_1", "hessian_derived"),
        ("java w3-1 h2 decode ", "serde_w3_decode_1", "hessian_derived"),
        ("java w3-10000 h2 encode ", "serde_w3_encode_10000", "hessian_derived"),
        ("java w3-10000 h2 decode ", "serde_w3_decode_10000", "hessian_derived"),
    ];
    for line in String::from_utf8_lossy(&out).lines() {
        println!("{line}");
        let Some(&(_, group, function)) = ours.iter().find(|(p, _, _)| line.starts_with(p)) else { continue };
        let java_us =
            line.split_whitespace().find_map(|f| f.strip_prefix("median_us=")).and_then(|x| x.parse::<f64>().ok());
        if let (Some(java_us), Some(rust_ns)) = (java_us, rust_median_ns(group, function, started)) {
            let rust_us = rust_ns / 1000.0;
            println!(
                "  vs this crate {group}/{function} ({ALLOCATOR}): median_us={rust_us:.3}, Java/this crate = {:.2}x",
                java_us / rust_us
            );
        }
    }
}

/// The fixed per-message cost: one W3 `Money` and the W2 `Order` request and reply, each one
/// message, against rmp-serde with named fields (`to_vec_named`, the closest self-describing
/// peer) and bincode.
fn messages(c: &mut Criterion) {
    fn cases<T: serde::Serialize + serde::de::DeserializeOwned>(c: &mut Criterion, name: &str, v: &T) {
        let mut g = c.benchmark_group(format!("serde_{name}_encode"));
        g.bench_function("hessian", |b| b.iter(|| hessian::to_vec(black_box(v)).unwrap()));
        g.bench_function("rmp_serde_named", |b| b.iter(|| rmp_serde::to_vec_named(black_box(v)).unwrap()));
        g.bench_function("bincode", |b| b.iter(|| bincode::serialize(black_box(v)).unwrap()));
        g.finish();
        let (h, mp, bc) =
            (hessian::to_vec(v).unwrap(), rmp_serde::to_vec_named(v).unwrap(), bincode::serialize(v).unwrap());
        let mut g = c.benchmark_group(format!("serde_{name}_decode"));
        g.bench_function("hessian", |b| b.iter(|| hessian::from_slice::<T>(black_box(&h)).unwrap()));
        g.bench_function("rmp_serde_named", |b| b.iter(|| rmp_serde::from_slice::<T>(black_box(&mp)).unwrap()));
        g.bench_function("bincode", |b| b.iter(|| bincode::deserialize::<T>(black_box(&bc)).unwrap()));
        g.finish();
    }
    cases(c, "money_1", &structs::money());
    cases(c, "w2_request", &structs::w2::request());
    cases(c, "w2_reply", &structs::w2::reply());
}

/// The W2 call and reply as whole messages, plain Hessian 2 against the type negotiation's
/// referring form (`docs/negotiation.md`): a referring message neither writes nor parses the six
/// class definitions, and its classes are the map's (interned) definitions, whose binding to
/// the Rust structs' fields is worked out once per definition rather than once per message.
fn negotiated(c: &mut Criterion) {
    use hessian::serde::message::{self as m, CallReader, CallWriter};
    use hessian::{Format, Limits};
    let (order, reply) = (structs::w2::request(), structs::w2::reply());
    let call = |map: Option<&hessian::negotiate::TypeMap>| {
        let mut w = match map {
            None => CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1).unwrap(),
            Some(map) => CallWriter::referring(Format::Hessian2, map, "exchange", 1, Vec::new()).unwrap(),
        };
        w.arg(black_box(&order)).unwrap();
        w.finish().unwrap()
    };
    let plain_call = call(None);
    let map =
        hessian::negotiate::TypeMap::new(hessian::negotiate::message_classes(&plain_call, Limits::default()).unwrap())
            .unwrap();
    let map = std::sync::Arc::new(map);
    let referring_call = call(Some(&map));
    let plain_reply = m::reply_to_vec(Format::Hessian2, &reply).unwrap();
    let referring_reply = m::reply_to_vec_referring(Format::Hessian2, &map, &reply).unwrap();
    println!(
        "W2 exchange: call {} bytes plain, {} referring; reply {} plain, {} referring",
        plain_call.len(),
        referring_call.len(),
        plain_reply.len(),
        referring_reply.len()
    );
    let mut g = c.benchmark_group("serde_w2_call_encode");
    g.bench_function("plain", |b| b.iter(|| call(None)));
    g.bench_function("referring", |b| b.iter(|| call(Some(&map))));
    g.finish();
    let decode = |body: &[u8]| {
        let mut r = CallReader::negotiated(Format::Hessian2, body, Limits::default(), |_| Some(map.clone())).unwrap();
        let o: structs::w2::Order = r.arg().unwrap();
        r.finish().unwrap();
        o
    };
    let mut g = c.benchmark_group("serde_w2_call_decode");
    g.bench_function("plain", |b| b.iter(|| decode(black_box(&plain_call))));
    g.bench_function("referring", |b| b.iter(|| decode(black_box(&referring_call))));
    g.finish();
    let mut g = c.benchmark_group("serde_w2_reply_message_encode");
    g.bench_function("plain", |b| b.iter(|| m::reply_to_vec(Format::Hessian2, black_box(&reply)).unwrap()));
    g.bench_function("referring", |b| {
        b.iter(|| m::reply_to_vec_referring(Format::Hessian2, &map, black_box(&reply)).unwrap())
    });
    g.finish();
    let read = |body: &[u8]| {
        m::reply_from_slice_negotiated::<structs::w2::Order, _>(Format::Hessian2, body, Limits::default(), |_| {
            Some(map.clone())
        })
        .unwrap()
        .reply
        .unwrap()
    };
    let mut g = c.benchmark_group("serde_w2_reply_message_decode");
    g.bench_function("plain", |b| b.iter(|| read(black_box(&plain_reply))));
    g.bench_function("referring", |b| b.iter(|| read(black_box(&referring_reply))));
    g.finish();
}

/// Ratios of this crate's criterion medians to rmp-serde (named fields) and bincode, from the
/// groups measured in this run (a group left out by the filter is not printed).
fn ratios(started: std::time::SystemTime) {
    let rows: &[(&str, &str, &str)] = &[
        ("W3 Money x1 encode", "serde_money_1_encode", "rmp_serde_named"),
        ("W3 Money x1 decode", "serde_money_1_decode", "rmp_serde_named"),
        ("W2 request encode", "serde_w2_request_encode", "rmp_serde_named"),
        ("W2 request decode", "serde_w2_request_decode", "rmp_serde_named"),
        ("W2 reply encode", "serde_w2_reply_encode", "rmp_serde_named"),
        ("W2 reply decode", "serde_w2_reply_decode", "rmp_serde_named"),
        ("W1 5000 encode", "serde_w1_encode_5000", "rmp_serde"),
        ("W1 5000 decode", "serde_w1_decode_5000", "rmp_serde"),
    ];
    let mut printed = false;
    for &(what, group, rmp) in rows {
        let Some(ours) = rust_median_ns(group, "hessian", started) else { continue };
        if !printed {
            println!("\nRatios of criterion medians in this run ({ALLOCATOR}; W1's rmp-serde is `to_vec`):");
            println!("| case | hessian | rmp-serde | bincode | hessian ÷ rmp-serde | hessian ÷ bincode |");
            println!("|---|---:|---:|---:|---:|---:|");
            printed = true;
        }
        let other = |f: &str| rust_median_ns(group, f, started);
        let cell = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{:.0} ns", x));
        let ratio = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{:.2}×", ours / x));
        let (m, b) = (other(rmp), other("bincode"));
        println!("| {what} | {:.0} ns | {} | {} | {} | {} |", ours, cell(m), cell(b), ratio(m), ratio(b));
    }
}

/// The three serde formats side by side on W1 (1,000 items), the W2 request and reply and one W3
/// `Money`, encode and decode: `serde_formats_{workload}_{encode,decode}/{h2,h1,burlap}`. The
/// before/after figure of a change to the serde layer (e.g. `-- formats`).
fn formats(c: &mut Criterion) {
    use hessian::serde::{burlap, h1, h2};
    use hessian_testkit::structs::w2::Order;
    fn cases<T: serde::Serialize + serde::de::DeserializeOwned>(c: &mut Criterion, name: &str, v: &T) {
        let mut g = c.benchmark_group(format!("serde_formats_{name}_encode"));
        g.bench_function("h2", |b| b.iter(|| h2::to_vec(black_box(v)).unwrap()));
        g.bench_function("h1", |b| b.iter(|| h1::to_vec(black_box(v)).unwrap()));
        g.bench_function("burlap", |b| b.iter(|| burlap::to_vec(black_box(v)).unwrap()));
        g.finish();
        let (a, b1, bu) = (h2::to_vec(v).unwrap(), h1::to_vec(v).unwrap(), burlap::to_vec(v).unwrap());
        let mut g = c.benchmark_group(format!("serde_formats_{name}_decode"));
        g.bench_function("h2", |b| b.iter(|| h2::from_slice::<T>(black_box(&a)).unwrap()));
        g.bench_function("h1", |b| b.iter(|| h1::from_slice::<T>(black_box(&b1)).unwrap()));
        g.bench_function("burlap", |b| b.iter(|| burlap::from_slice::<T>(black_box(&bu)).unwrap()));
        g.finish();
    }
    cases::<Vec<Item>>(c, "w1_1000", &structs::items(1000));
    cases::<Order>(c, "w2_request", &structs::w2::request());
    cases::<Order>(c, "w2_reply", &structs::w2::reply());
    cases::<Money>(c, "w3_money_1", &structs::money());
}

criterion_group!(benches, w1, w3, messages, negotiated, formats);

// criterion_main!, plus the Java reference after the groups.
fn main() {
    let started = std::time::SystemTime::now();
    benches();
    ratios(started);
    java_reference(started);
    Criterion::default().configure_from_args().final_summary();
}
