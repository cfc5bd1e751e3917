//! What only Burlap has to check against Caucho 4.0.38's Java: Burlap writes doubles as text, as
//! Java's `Double.toString` prints them, so Rust's printing and parsing are checked against Java's
//! over many doubles. The catalogue and envelope properties that Burlap shares with Hessian 1 are
//! in `interop_legacy.rs`.

use hessian::burlap;
use hessian_testkit::java::java;

/// Burlap prints doubles with Java's `Double.toString`, whose Java 17 algorithm is not a
/// shortest-digits one: Rust reproduces it for every power of two, every power of ten, the
/// smallest subnormals and tens of thousands of random doubles.
#[test]
fn doubles_print_as_java_double_to_string() {
    let Some(java) = java() else { return };
    let out = java.run("LegacyInterop", &["doubles", "30000", "17"], b"");
    let text = String::from_utf8(out).unwrap();
    let mut failures = Vec::new();
    let mut n = 0;
    for line in text.lines() {
        let (hex, javas) = line.split_once(' ').unwrap();
        let d = f64::from_bits(u64::from_str_radix(hex, 16).unwrap());
        n += 1;
        let ours = burlap::text::java_double(d);
        if ours != javas && failures.len() < 20 {
            failures.push(format!("{hex}: java {javas} rust {ours}"));
        }
        assert_eq!(burlap::text::parse_java_double(javas).map(f64::to_bits), Some(d.to_bits()), "{javas}");
    }
    assert!(n > 30000, "too few doubles: {n}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
