//! The W1-W3 workloads: what Java's `Hessian2Output` writes, byte for byte, is what this crate's
//! encoder writes for the testkit's values, and each side decodes the other's output.

use hessian::h2;
use hessian_testkit::{java::java, workloads};

#[test]
fn workloads_match_java_bytes() {
    let Some(java) = java() else { return };
    let cases = [
        ("items", "1", workloads::items(1)),
        ("items", "10", workloads::items(10)),
        ("items", "5000", workloads::items(5000)),
        ("request", "0", workloads::W2Classes::default().request()),
        ("reply", "0", workloads::W2Classes::default().reply()),
        ("money", "0", workloads::money(&workloads::money_class(), 1000)),
        ("moneys", "10000", workloads::moneys(10000)),
    ];
    for (name, n, value) in cases {
        let java_bytes = java.run("WriteWorkload", &[name, n], b"");
        let ours = h2::to_vec(&value).unwrap();
        assert!(ours == java_bytes, "{name}({n}): Rust bytes differ from Java's");
        assert_eq!(h2::from_slice(&java_bytes).unwrap(), value, "{name}({n}): decoding Java's bytes");
    }
}
