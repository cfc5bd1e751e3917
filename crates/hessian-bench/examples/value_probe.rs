//! Instruction-count probe for the `Value` codecs (run under valgrind):
//! `value_probe enc|dec N` (Hessian 2, W1 of 5,000 items), or `value_probe FORMAT-enc|dec N`
//! with FORMAT `h2`, `h1` or `bu` (Burlap) on W1 of 1,000 items, as `serde_probe`'s `w1k`:
//! the count of a run of 2N minus that of a run of N, divided by N, is one message.
use hessian_testkit::workloads;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mode = args.get(1).map(String::as_str).unwrap_or("");
    let (format, op) = match mode {
        "enc" | "dec" => ("h2-5000", mode),
        _ => mode.split_once('-').unwrap_or(("", "")),
    };
    let items = workloads::items(if format == "h2-5000" { 5000 } else { 1000 });
    let encode = |v: &hessian::Value| match format {
        "h2" | "h2-5000" => hessian::h2::to_vec(v),
        "h1" => hessian::h1::to_vec(v),
        "bu" => hessian::burlap::to_vec(v),
        _ => panic!("format {format}: h2, h1 or bu"),
    };
    let decode = |b: &[u8]| match format {
        "h1" => hessian::h1::from_slice(b),
        "bu" => hessian::burlap::from_slice(b),
        _ => hessian::h2::from_slice(b),
    };
    let bytes = encode(&items).expect("encode");
    for _ in 0..n {
        match op {
            "enc" => drop(std::hint::black_box(encode(std::hint::black_box(&items)).expect("encode"))),
            "dec" => drop(std::hint::black_box(decode(std::hint::black_box(&bytes)).expect("decode"))),
            _ => {}
        }
    }
}
