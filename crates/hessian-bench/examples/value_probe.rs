//! Instruction-count probe for the `Value` codec (run under valgrind): `value_probe enc|dec N`.
use hessian::h2;
use hessian_testkit::workloads;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let items = workloads::items(5000);
    let bytes = h2::to_vec(&items).expect("encode");
    for _ in 0..n {
        match args.get(1).map(String::as_str) {
            Some("enc") => drop(std::hint::black_box(h2::to_vec(&items).expect("encode"))),
            Some("dec") => drop(std::hint::black_box(h2::from_slice(&bytes).expect("decode"))),
            _ => {}
        }
    }
}
