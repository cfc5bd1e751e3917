//! Serde against the Java reference (Caucho hessian 4.0.38): the W1-W3 Rust structs of
//! `hessian_testkit::structs` and the Java classes of `interop/java/src`, in both directions.
//!
//! Rust -> Java: Java's `Hessian2Input` decodes what `hessian::serde::to_vec` wrote and compares
//! it with the Java workload via `equals` (`SerdeCheck check`). Java -> Rust: what Java's
//! `Hessian2Output` writes decodes into the Rust structs, and the Rust structs serialize to
//! exactly Java's bytes. The same both ways in Hessian 1.0.2 (`hessian::serde::h1`,
//! `HessianOutput`/`HessianInput`).

use hessian::serde::{from_slice, to_vec};
use hessian_testkit::java::{java, Java};
use hessian_testkit::structs;
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;

fn check_in_java(java: &Java, proto: &str, case: &str, n: usize, bytes: &[u8]) {
    let out = java.try_run("SerdeCheck", &["check", proto, case, &n.to_string()], bytes);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.trim() == "OK",
        "Java could not read Rust's {proto} {case}({n}): {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn h2_both_ways<T: Serialize + DeserializeOwned + PartialEq + Debug>(java: &Java, case: &str, n: usize, value: &T) {
    let ours = to_vec(value).unwrap();
    check_in_java(java, "h2", case, n, &ours);
    let theirs = java.run("SerdeCheck", &["write", "h2", case, &n.to_string()], b"");
    let decoded: T = from_slice(&theirs).unwrap();
    assert_eq!(&decoded, value, "{case}({n}): decoding Java's bytes");
    assert!(ours == theirs, "{case}({n}): Rust's serde bytes differ from Java's");
}

#[test]
fn w1_items_h2_both_ways() {
    let Some(java) = java() else { return };
    for n in [1, 10, 5000] {
        h2_both_ways(&java, "items", n, &structs::items(n));
    }
}

#[test]
fn w2_order_graph_h2_both_ways() {
    let Some(java) = java() else { return };
    h2_both_ways(&java, "request", 0, &structs::w2::request());
    h2_both_ways(&java, "reply", 0, &structs::w2::reply());
}

#[test]
fn w3_money_h2_both_ways() {
    let Some(java) = java() else { return };
    h2_both_ways(&java, "money", 0, &structs::money());
    h2_both_ways(&java, "moneys", 10000, &structs::moneys(10000));
}

#[test]
fn w3_hand_written_money_h2_both_ways() {
    let Some(java) = java() else { return };
    // Rust writes only the cents: Java reads Money objects whose text stays null.
    let hand: Vec<structs::MoneyCents> = (0..10000).map(|i| structs::MoneyCents::of(i * 100)).collect();
    check_in_java(&java, "h2", "moneycents", 10000, &to_vec(&hand).unwrap());
    // Java writes cents and text: the hand-written reader takes the cents and skips the rest.
    let theirs = java.run("SerdeCheck", &["write", "h2", "moneys", "10000"], b"");
    assert_eq!(from_slice::<Vec<structs::MoneyCents>>(&theirs).unwrap(), hand);
}

fn h1_both_ways<T: Serialize + DeserializeOwned + PartialEq + Debug>(java: &Java, case: &str, n: usize, value: &T) {
    let ours = hessian::serde::h1::to_vec(value).unwrap();
    check_in_java(java, "h1", case, n, &ours);
    let theirs = java.run("SerdeCheck", &["write", "h1", case, &n.to_string()], b"");
    let decoded: T = hessian::serde::h1::from_slice(&theirs).unwrap();
    assert_eq!(&decoded, value, "{case}({n}): decoding Java's Hessian 1 bytes");
    assert!(ours == theirs, "{case}({n}): Rust's Hessian 1 serde bytes differ from HessianOutput's");
}

#[test]
fn w1_w2_w3_hessian1_both_ways() {
    let Some(java) = java() else { return };
    for n in [1, 10, 5000] {
        h1_both_ways(&java, "items", n, &structs::items(n));
    }
    h1_both_ways(&java, "request", 0, &structs::w2::request());
    h1_both_ways(&java, "reply", 0, &structs::w2::reply());
    h1_both_ways(&java, "money", 0, &structs::money());
    h1_both_ways(&java, "moneys", 10000, &structs::moneys(10000));
    let hand: Vec<structs::MoneyCents> = (0..10000).map(|i| structs::MoneyCents::of(i * 100)).collect();
    check_in_java(&java, "h1", "moneycents", 10000, &hessian::serde::h1::to_vec(&hand).unwrap());
}
