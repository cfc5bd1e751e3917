//! The W1-W3 workloads in Hessian 1 and Burlap: what Java's `HessianOutput` and `BurlapOutput`
//! write, byte for byte, is what this crate writes for the testkit's values, and each decodes
//! to the typed-map view of those values.

use hessian::{burlap, convert, h1};
use hessian_testkit::{java::java, workloads};

#[test]
fn workloads_match_java_bytes_in_hessian1_and_burlap() {
    let Some(java) = java() else { return };
    let cases = [
        ("items", "1", workloads::items(1)),
        ("items", "100", workloads::items(100)),
        ("items", "5000", workloads::items(5000)),
        ("request", "0", workloads::W2Classes::default().request()),
        ("reply", "0", workloads::W2Classes::default().reply()),
        ("money", "0", workloads::money(&workloads::money_class(), 1000)),
        ("moneys", "10000", workloads::moneys(10000)),
    ];
    for fmt in ["h1", "burlap"] {
        for (name, n, value) in &cases {
            let java_bytes = java.run("LegacyInterop", &["workload", fmt, name, n], b"");
            let (ours, decoded) = if fmt == "h1" {
                (h1::to_vec(value).unwrap(), h1::from_slice(&java_bytes).unwrap())
            } else {
                (burlap::to_vec(value).unwrap(), burlap::from_slice(&java_bytes).unwrap())
            };
            assert!(ours == java_bytes, "{fmt} {name}({n}): Rust bytes differ from Java's");
            assert_eq!(decoded, convert::objects_to_maps(value), "{fmt} {name}({n}): decoding Java's bytes");
            assert_eq!(&convert::to_h2(&decoded), value, "{fmt} {name}({n}): converting to the Hessian 2 model");
        }
    }
}
