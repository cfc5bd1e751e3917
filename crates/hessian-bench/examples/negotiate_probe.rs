//! Runs one W2 call encode or decode N times, plain Hessian 2 or referring to its type map
//! (`docs/negotiation.md`), for instruction counts that do not depend on machine load:
//! `valgrind --tool=cachegrind --cache-sim=no target/release/examples/negotiate_probe MODE N`,
//! the count of a run of 2N minus that of a run of N, divided by N.
//!
//! MODE: `enc-plain`, `enc-ref`, `dec-plain`, `dec-ref` (the `exchange(Order)` call),
//! `rep-enc-plain`, `rep-enc-ref`, `rep-dec-plain`, `rep-dec-ref` (its reply); `rep-enc-ref-decoded`
//! refers to the map as a server learns it, from the definitions it decoded.

use hessian::negotiate::TypeMap;
use hessian::serde::message::{self as m, CallReader, CallWriter};
use hessian::{Format, Limits};
use hessian_testkit::structs::w2;
use std::hint::black_box;
use std::sync::Arc;

fn call(order: &w2::Order, map: Option<&TypeMap>) -> Vec<u8> {
    let mut w = match map {
        None => CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1).unwrap(),
        Some(map) => CallWriter::referring(Format::Hessian2, map, "exchange", 1, Vec::new()).unwrap(),
    };
    w.arg(order).unwrap();
    w.finish().unwrap()
}

fn main() {
    let mode = std::env::args().nth(1).expect("MODE");
    let n: usize = std::env::args().nth(2).map_or(1000, |s| s.parse().expect("N"));
    let (order, reply) = (w2::request(), w2::reply());
    let plain_call = call(&order, None);
    let classes = hessian::negotiate::message_classes(&plain_call, Limits::default()).unwrap();
    let map = Arc::new(TypeMap::new(classes).unwrap());
    let ref_call = call(&order, Some(&map));
    let plain_reply = m::reply_to_vec(Format::Hessian2, &reply).unwrap();
    let ref_reply = m::reply_to_vec_referring(Format::Hessian2, &map, &reply).unwrap();
    // `rep-enc-ref-decoded`: as a server does, with the map learned from a decoded call
    let decoded_map = {
        let mut r = CallReader::new(Format::Hessian2, &plain_call, Limits::default()).unwrap();
        let _: w2::Order = r.arg().unwrap();
        Arc::new(TypeMap::new(r.finish_with_classes().unwrap()).unwrap())
    };
    let lookup = |_: &hessian::negotiate::Digest| Some(map.clone());
    let mut total = 0usize;
    for _ in 0..n {
        total += match mode.as_str() {
            "enc-plain" => call(black_box(&order), None).len(),
            "enc-ref" => call(black_box(&order), Some(&map)).len(),
            "dec-plain" | "dec-ref" => {
                let body = if mode == "dec-ref" { &ref_call } else { &plain_call };
                let mut r =
                    CallReader::negotiated(Format::Hessian2, black_box(body), Limits::default(), lookup).unwrap();
                let o: w2::Order = r.arg().unwrap();
                r.finish().unwrap();
                o.lines.len()
            }
            "rep-enc-plain" => m::reply_to_vec(Format::Hessian2, black_box(&reply)).unwrap().len(),
            "rep-enc-ref" => m::reply_to_vec_referring(Format::Hessian2, &map, black_box(&reply)).unwrap().len(),
            "rep-enc-ref-decoded" => {
                m::reply_to_vec_referring(Format::Hessian2, &decoded_map, black_box(&reply)).unwrap().len()
            }
            "rep-dec-plain" | "rep-dec-ref" => {
                let body = if mode == "rep-dec-ref" { &ref_reply } else { &plain_reply };
                let r = m::reply_from_slice_negotiated::<w2::Order, _>(
                    Format::Hessian2,
                    black_box(body),
                    Limits::default(),
                    lookup,
                )
                .unwrap();
                r.reply.unwrap().lines.len()
            }
            other => panic!("unknown mode {other}"),
        };
    }
    eprintln!("{mode}: {n} runs ({total})");
}
