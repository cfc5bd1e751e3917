//! The codec benchmark: workload W1 (a list of 5000 items, `docs/workloads.md`) encoded and
//! decoded as a dynamic `Value`, compared in the same run with the `hessian_rs` crate on the same
//! data (the same objects, written as Hessian 2 objects with one class definition).
//!
//! Run: `cargo bench -p hessian-bench --bench codec`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hessian::{h2, Value};
use hessian_testkit::workloads;

/// The same W1 items as `hessian_rs` values (field order as Java writes them).
fn hessian_rs_fields(items: &Value) -> Vec<Vec<hessian_rs::Value>> {
    let Value::List(list) = items else { unreachable!("items() is a list") };
    list.items
        .iter()
        .map(|item| {
            let Value::Object(o) = item else { unreachable!("items are objects") };
            o.fields
                .iter()
                .map(|f| match f {
                    Value::String(s) => hessian_rs::Value::String(s.clone()),
                    Value::Long(l) => hessian_rs::Value::Long(*l),
                    Value::Int(i) => hessian_rs::Value::Int(*i),
                    Value::Double(d) => hessian_rs::Value::Double(*d),
                    Value::Date(d) => hessian_rs::Value::Date(*d),
                    other => unreachable!("W1 has no {}", other.kind_name()),
                })
                .collect()
        })
        .collect()
}

fn hessian_rs_encode(def: &hessian_rs::value::Definition, items: &[Vec<hessian_rs::Value>]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut ser = hessian_rs::ser::Serializer::new(&mut out);
    ser.write_list_begin(items.len(), None).expect("hessian_rs list");
    for fields in items {
        ser.serialize_fields_with_definition(def, fields).expect("hessian_rs object");
    }
    out
}

fn w1(c: &mut Criterion) {
    let n = 5000;
    let items = workloads::items(n);
    let ours = h2::to_vec(&items).expect("encode");
    let rs_items = hessian_rs_fields(&items);
    let class = workloads::item_class();
    let def = hessian_rs::value::Definition { name: class.name.clone(), fields: class.fields.clone() };
    let theirs = hessian_rs_encode(&def, &rs_items);
    // Both sides decode the same bytes: ours (identical to what Java writes for W1).
    assert!(hessian_rs::from_slice(&ours).is_ok(), "hessian_rs must decode the W1 bytes");

    let mut g = c.benchmark_group("w1_5000_encode");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function(BenchmarkId::new("hessian_value", ours.len()), |b| {
        b.iter(|| h2::to_vec(black_box(&items)).expect("encode"))
    });
    g.bench_function(BenchmarkId::new("hessian_rs", theirs.len()), |b| {
        b.iter(|| hessian_rs_encode(black_box(&def), black_box(&rs_items)))
    });
    g.finish();

    let mut g = c.benchmark_group("w1_5000_decode");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("hessian_value_slice", |b| b.iter(|| h2::from_slice(black_box(&ours)).expect("decode")));
    g.bench_function("hessian_value_reader", |b| {
        b.iter(|| h2::from_reader(black_box(ours.as_slice())).expect("decode"))
    });
    g.bench_function("hessian_rs", |b| b.iter(|| hessian_rs::from_slice(black_box(&ours)).expect("decode")));
    g.finish();
}

criterion_group!(benches, w1);
criterion_main!(benches);
