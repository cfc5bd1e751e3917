//! The W1-W3 workloads in Hessian 1 and Burlap: what Java's `HessianOutput` and `BurlapOutput`
//! write, byte for byte, is what this crate writes for the testkit's values, and each decodes
//! to the typed-map view of those values; checked once over [`LegacyFormat`] for both formats.

mod common;

use common::legacy_formats::LegacyFormat;
use common::serde_formats::{Burlap, H1};
use hessian::{convert, Value};
use hessian_testkit::{java::java, java::Java, workloads};

/// The workloads as (the driver's workload name, its size argument, the value).
fn cases() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("items", "1", workloads::items(1)),
        ("items", "100", workloads::items(100)),
        ("items", "5000", workloads::items(5000)),
        ("request", "0", workloads::W2Classes::default().request()),
        ("reply", "0", workloads::W2Classes::default().reply()),
        ("money", "0", workloads::money(&workloads::money_class(), 1000)),
        ("moneys", "10000", workloads::moneys(10000)),
    ]
}

fn workloads_match<F: LegacyFormat>(java: &Java, cases: &[(&str, &str, Value)]) {
    let fmt = F::DRIVER;
    for (name, n, value) in cases {
        let java_bytes = java.run("LegacyInterop", &["workload", fmt, name, n], b"");
        let ours = F::value_to_vec(value).unwrap();
        let decoded = F::value_from_slice(&java_bytes).unwrap();
        assert!(ours == java_bytes, "{fmt} {name}({n}): Rust bytes differ from Java's");
        assert_eq!(decoded, convert::objects_to_maps(value), "{fmt} {name}({n}): decoding Java's bytes");
        assert_eq!(&convert::to_h2(&decoded), value, "{fmt} {name}({n}): converting to the Hessian 2 model");
    }
}

#[test]
fn workloads_match_java_bytes_in_hessian1_and_burlap() {
    let Some(java) = java() else { return };
    let cases = cases();
    workloads_match::<H1>(&java, &cases);
    workloads_match::<Burlap>(&java, &cases);
}
