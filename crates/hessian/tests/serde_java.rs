//! Serde against the Java reference (Caucho hessian 4.0.38): the W1-W3 Rust structs of
//! `hessian_testkit::structs` and the Java classes of `interop/java/src`, in both directions.
//!
//! Rust -> Java: Java's `Hessian2Input` decodes what `hessian::serde::to_vec` wrote and compares
//! it with the Java workload via `equals` (`SerdeCheck check`). Java -> Rust: what Java's
//! `Hessian2Output` writes decodes into the Rust structs, and the Rust structs serialize to
//! exactly Java's bytes. The same both ways in Hessian 1.0.2 (`hessian::serde::h1`,
//! `HessianOutput`/`HessianInput`) and in Burlap (`hessian::serde::burlap`,
//! `BurlapOutput`/`BurlapInput`).

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

fn burlap_both_ways<T: Serialize + DeserializeOwned + PartialEq + Debug>(java: &Java, case: &str, n: usize, value: &T) {
    let ours = hessian::serde::burlap::to_vec(value).unwrap();
    check_in_java(java, "burlap", case, n, &ours);
    let theirs = java.run("SerdeCheck", &["write", "burlap", case, &n.to_string()], b"");
    let decoded: T = hessian::serde::burlap::from_slice(&theirs).unwrap();
    assert_eq!(&decoded, value, "{case}({n}): decoding Java's Burlap bytes");
    assert!(ours == theirs, "{case}({n}): Rust's Burlap serde bytes differ from BurlapOutput's");
}

#[test]
fn w1_w2_w3_burlap_both_ways() {
    let Some(java) = java() else { return };
    for n in [1, 10, 5000] {
        burlap_both_ways(&java, "items", n, &structs::items(n));
    }
    burlap_both_ways(&java, "request", 0, &structs::w2::request());
    burlap_both_ways(&java, "reply", 0, &structs::w2::reply());
    burlap_both_ways(&java, "money", 0, &structs::money());
    burlap_both_ways(&java, "moneys", 10000, &structs::moneys(10000));
    let hand: Vec<structs::MoneyCents> = (0..10000).map(|i| structs::MoneyCents::of(i * 100)).collect();
    check_in_java(&java, "burlap", "moneycents", 10000, &hessian::serde::burlap::to_vec(&hand).unwrap());
}

/// The W2 enum of the conformance classes (`org.example.h2conformance.Color`).
#[derive(Serialize, serde::Deserialize, Debug, PartialEq)]
#[serde(rename = "org.example.h2conformance.Color")]
#[allow(clippy::upper_case_acronyms)]
enum Color {
    RED,
    GREEN,
}

/// Java writes objects and enum constants that occur twice in one graph as references (`Q` in
/// Hessian 2, `R` in Hessian 1); they decode into plain structs and enums as copies, and the
/// copies Rust writes back are equal in Java.
#[test]
fn java_references_decode_into_plain_structs_and_enums() {
    let Some(java) = java() else { return };
    let m = structs::w2::Money { cents: 5000, currency: "EUR".into() };
    let p = structs::w2::Product { sku: "SKU-0001".into(), name: "Product 1".into(), price: m.clone() };
    let n = 4;
    let mut lines: Vec<structs::w2::LineItem> =
        (1..=n).map(|i| structs::w2::LineItem { quantity: i, product: p.clone(), total: m.clone() }).collect();
    lines.push(lines[0].clone());
    let colors = vec![Color::RED, Color::GREEN, Color::RED, Color::RED, Color::GREEN];
    let h1 = |b: &[u8]| hessian::h1::from_slice(b).unwrap().to_string();

    // Hessian 2: every repeat is a `Q`: 2 per line after the first, the product's price (the
    // same Money as the totals) and the repeated first line; 3 repeated colors
    let theirs = java.run("SerdeCheck", &["write", "h2", "shared", &n.to_string()], b"");
    assert_eq!(theirs.iter().filter(|&&b| b == b'Q').count(), 2 * (n as usize - 1) + 2);
    assert_eq!(from_slice::<Vec<structs::w2::LineItem>>(&theirs).unwrap(), lines);
    check_in_java(&java, "h2", "shared", n as usize, &to_vec(&lines).unwrap());
    let theirs = java.run("SerdeCheck", &["write", "h2", "colors", "0"], b"");
    assert_eq!(theirs.iter().filter(|&&b| b == b'Q').count(), 3);
    assert_eq!(from_slice::<Vec<Color>>(&theirs).unwrap(), colors);
    check_in_java(&java, "h2", "colors", 0, &to_vec(&colors).unwrap());

    // Hessian 1: the same repeats as `R` (shown by the dynamic decoder as `ref(n)`)
    let theirs = java.run("SerdeCheck", &["write", "h1", "shared", &n.to_string()], b"");
    assert_eq!(h1(&theirs).matches("ref(").count(), 2 * (n as usize - 1) + 2, "{}", h1(&theirs));
    assert_eq!(hessian::serde::h1::from_slice::<Vec<structs::w2::LineItem>>(&theirs).unwrap(), lines);
    check_in_java(&java, "h1", "shared", n as usize, &hessian::serde::h1::to_vec(&lines).unwrap());
    let theirs = java.run("SerdeCheck", &["write", "h1", "colors", "0"], b"");
    assert_eq!(h1(&theirs).matches("ref(").count(), 3, "{}", h1(&theirs));
    assert_eq!(hessian::serde::h1::from_slice::<Vec<Color>>(&theirs).unwrap(), colors);
    check_in_java(&java, "h1", "colors", 0, &hessian::serde::h1::to_vec(&colors).unwrap());

    // Burlap: the same repeats as `<ref>n</ref>`
    let theirs = java.run("SerdeCheck", &["write", "burlap", "shared", &n.to_string()], b"");
    let shown = String::from_utf8_lossy(&theirs).into_owned();
    assert_eq!(shown.matches("<ref>").count(), 2 * (n as usize - 1) + 2, "{shown}");
    assert_eq!(hessian::serde::burlap::from_slice::<Vec<structs::w2::LineItem>>(&theirs).unwrap(), lines);
    check_in_java(&java, "burlap", "shared", n as usize, &hessian::serde::burlap::to_vec(&lines).unwrap());
    let theirs = java.run("SerdeCheck", &["write", "burlap", "colors", "0"], b"");
    let shown = String::from_utf8_lossy(&theirs).into_owned();
    assert_eq!(shown.matches("<ref>").count(), 3, "{shown}");
    assert_eq!(hessian::serde::burlap::from_slice::<Vec<Color>>(&theirs).unwrap(), colors);
    check_in_java(&java, "burlap", "colors", 0, &hessian::serde::burlap::to_vec(&colors).unwrap());
}
