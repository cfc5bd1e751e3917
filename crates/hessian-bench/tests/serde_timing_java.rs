//! `SerdeTiming` (the Java reference timing the serde benchmark prints) runs under the full JIT,
//! prints one well-formed line per case, and times the very messages this crate writes for the
//! same data (the byte counts agree). Durations are cut to a minimum: this checks the program,
//! not the figures.

use hessian_testkit::java::{java, TIMING_JVM_OPTS};
use hessian_testkit::structs;

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|f| f.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key}= in {line:?}"))
}

#[test]
fn serde_timing_runs_with_full_jit_and_times_the_same_bytes() {
    assert!(!TIMING_JVM_OPTS.iter().any(|o| o.contains("TieredStopAtLevel") || o.contains("UseSerialGC")));
    let Some(java) = java() else { return };
    let out = String::from_utf8(java.run_timing("SerdeTiming", &["0.05", "0.05"])).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    let info = lines[0];
    assert!(info.starts_with("java info ") && info.contains("Tiered Compilers"), "{info}");
    assert!(!info.contains("TieredStopAtLevel"), "{info}");

    let items = structs::items(5000);
    let moneys = structs::moneys(10000);
    let expected = [
        ("w1-5000 h2 encode", hessian::to_vec(&items).unwrap().len()),
        ("w1-5000 h2 decode", hessian::to_vec(&items).unwrap().len()),
        ("w1-5000 h1 encode", hessian::serde::h1::to_vec(&items).unwrap().len()),
        ("w1-5000 h1 decode", hessian::serde::h1::to_vec(&items).unwrap().len()),
        ("w3-1 h2 encode", hessian::to_vec(&structs::money()).unwrap().len()),
        ("w3-1 h2 decode", hessian::to_vec(&structs::money()).unwrap().len()),
        ("w3-10000 h2 encode", hessian::to_vec(&moneys).unwrap().len()),
        ("w3-10000 h2 decode", hessian::to_vec(&moneys).unwrap().len()),
    ];
    assert_eq!(lines.len(), 1 + expected.len(), "{out}");
    for (line, (case, bytes)) in lines[1..].iter().zip(expected) {
        assert!(line.starts_with(&format!("java {case} ")), "{line:?} is not {case}");
        assert_eq!(field(line, "bytes").parse::<usize>().unwrap(), bytes, "{line}");
        let median: f64 = field(line, "median_us").parse().unwrap();
        let min: f64 = field(line, "min_us").parse().unwrap();
        let mean: f64 = field(line, "mean_us").parse().unwrap();
        assert!(0.0 < min && min <= median && min <= mean, "{line}");
        assert!(field(line, "samples").parse::<u32>().unwrap() >= 20, "{line}");
    }
}
