//! "Billion laughs"-style input for every decoder: deep nesting, reference fan-out, huge
//! declared lengths, class-definition floods and XML entity tricks. Each is refused (or decoded
//! without expansion) quickly, with a typed error and bounded memory.
//!
//! Memory is measured with a counting global allocator that keeps a per-thread tally of live
//! bytes and their high-water mark, so the tests of this binary can run in parallel without
//! disturbing each other's numbers.

use hessian::{burlap, h1, h2, ErrorKind, Limits, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn track(delta: isize) {
    // `try_with`: the thread-local may already be gone while a thread shuts down.
    let _ = LIVE.try_with(|l| {
        let now = l.get() + delta;
        l.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: forwards every call to the system allocator unchanged; only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        track(layout.size() as isize);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        track(-(layout.size() as isize));
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        track(new_size as isize - layout.size() as isize);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its result, the peak of bytes allocated on this thread above what was
/// live when it started, and the time it took.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, Duration) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let t = Instant::now();
    let out = f();
    let took = t.elapsed();
    let peak = PEAK.with(Cell::get) - base;
    (out, peak.max(0) as usize, took)
}

/// Asserts a limit error naming `what`.
fn assert_limit(r: hessian::Result<impl std::fmt::Debug>, what: &str) {
    match r {
        Err(e) => match e.kind() {
            ErrorKind::LimitExceeded { what: w, .. } if *w == what => {}
            k => panic!("expected the {what} limit, got {k} at {}", e.offset()),
        },
        Ok(v) => panic!("expected the {what} limit, decoded {v:?}"),
    }
}

const QUICK: Duration = Duration::from_secs(5);
const MIB: usize = 1024 * 1024;

// ---- deep nesting ----

fn nested(open: &[u8], depth: usize, close: &[u8]) -> Vec<u8> {
    let mut b = open.repeat(depth);
    b.extend_from_slice(close);
    b
}

#[test]
fn deep_nesting_is_refused_by_every_decoder() {
    let depth = 200_000;
    // Hessian 2.0: lists, maps, objects (a one-field class nesting itself)
    for bytes in [
        nested(&[0x79], depth, b"N"),
        nested(b"H\x01a", depth, b"N"),
        [&b"C\x01A\x91\x01x"[..], &nested(&[0x60], depth, b"N")].concat(),
    ] {
        let ((), mem, took) = measure(|| {
            assert_limit(h2::from_slice(&bytes), "depth");
            assert_limit(h2::from_reader(bytes.as_slice()), "depth");
            assert_limit(hessian::serde::from_slice::<Value>(&bytes), "depth");
            assert_limit(hessian::serde::from_slice::<serde_json::Value>(&bytes), "depth");
        });
        assert!(took < QUICK && mem < MIB, "{took:?}, {mem} bytes");
    }
    // Hessian 1.0.2: lists and maps
    for bytes in [nested(b"V", depth, b"N"), nested(b"M", depth, b"N")] {
        assert_limit(h1::from_slice(&bytes), "depth");
        assert_limit(h1::from_reader(bytes.as_slice()), "depth");
        assert_limit(hessian::serde::h1::from_slice::<Value>(&bytes), "depth");
        if bytes[1] == b'V' {
            // (maps keyed by maps are no JSON: only lists nest into JSON values)
            assert_limit(hessian::serde::h1::from_slice::<serde_json::Value>(&bytes), "depth");
        }
        assert_limit(hessian::serde::h1::from_reader::<_, serde::de::IgnoredAny>(bytes.as_slice()), "depth");
    }
    // Burlap: lists and maps
    for open in [&b"<list>"[..], b"<map>"] {
        let bytes = nested(open, depth, b"<null/>");
        let ((), mem, took) = measure(|| {
            assert_limit(burlap::from_slice(&bytes), "depth");
            assert_limit(burlap::from_reader(bytes.as_slice()), "depth");
        });
        assert!(took < QUICK && mem < MIB, "{took:?}, {mem} bytes");
    }
}

/// Nesting right up to the default depth limit decodes on a 2 MiB stack (the default for
/// spawned threads, e.g. a server's workers), even in an unoptimized build.
#[test]
fn nesting_at_the_default_limit_fits_a_small_stack() {
    let depth = Limits::default().max_depth;
    let run = move || {
        let h2_list = nested(&[0x79], depth, b"N");
        assert!(h2::from_slice(&h2_list).is_ok());
        assert!(hessian::serde::from_slice::<Value>(&h2_list).is_ok());
        assert!(hessian::serde::from_slice::<serde_json::Value>(&h2_list).is_ok());
        let h2_map = nested(b"H\x01a", depth, b"N");
        assert!(h2::from_slice(&[h2_map, vec![b'Z'; depth]].concat()).is_ok());
        let h1_list = [nested(b"V", depth, b"N"), vec![b'z'; depth]].concat();
        assert!(h1::from_slice(&h1_list).is_ok());
        assert!(hessian::serde::h1::from_slice::<serde_json::Value>(&h1_list).is_ok());
        assert!(hessian::serde::h1::from_slice::<serde::de::IgnoredAny>(&h1_list).is_ok());
        let b = [nested(b"<list>", depth, b"<null/>"), b"</list>".repeat(depth)].concat();
        assert!(burlap::from_slice(&b).is_ok());
        assert!(hessian::serde::burlap::from_slice::<serde_json::Value>(&b).is_ok());
        assert!(hessian::serde::burlap::from_slice::<serde::de::IgnoredAny>(&b).is_ok());
        assert!(hessian::serde::burlap::from_slice::<Value>(&b).is_ok());
    };
    std::thread::Builder::new().stack_size(2 * MIB).spawn(run).expect("spawn").join().expect("no stack overflow");
}

/// Regression: the URL of a Burlap `<remote>` was read with `read_value`, outside the depth
/// count, so `<remote><remote><remote>…` recursed without limit and overflowed the stack. The
/// URL must now be a `<string>` element.
#[test]
fn burlap_nested_remotes_do_not_recurse() {
    let bytes = b"<remote><type>t</type>".repeat(100_000);
    let (r, mem, took) = measure(|| burlap::from_slice(&bytes));
    assert!(matches!(r.as_ref().map_err(|e| e.kind()), Err(ErrorKind::Malformed(_))), "{r:?}");
    assert!(took < QUICK && mem < MIB, "{took:?}, {mem} bytes");
    let ok = b"<remote><type>t</type><string>http://h/x</string></remote>";
    let v = burlap::from_slice(ok).expect("a remote with a string URL");
    assert_eq!(v, Value::Remote(Box::new(hessian::Remote { type_name: "t".into(), url: "http://h/x".into() })));
}

// ---- class-definition floods ----

/// Regression: each class definition in front of a value used to be read by recursing into
/// `read_value`, so 60 000 four-byte definitions (240 KB) overflowed the stack and aborted the
/// process. Definitions are now read in a loop and counted against `max_class_defs`.
#[test]
fn class_definition_flood_is_counted_not_recursed() {
    let flood = |n: usize| {
        let mut b = b"C\x01a\x90".repeat(n);
        b.push(b'N');
        b
    };
    let ok = flood(60_000);
    let (r, _, took) = measure(|| h2::from_slice(&ok));
    assert_eq!(r.expect("60 000 definitions are under the default limit"), Value::Null);
    assert!(took < QUICK);
    let too_many = flood(Limits::default().max_class_defs + 1);
    let ((), mem, took) = measure(|| {
        assert_limit(h2::from_slice(&too_many), "class definitions");
        assert_limit(h2::from_reader(too_many.as_slice()), "class definitions");
        assert_limit(hessian::serde::from_slice::<Value>(&too_many), "class definitions");
        assert_limit(hessian::serde::from_slice::<Option<String>>(&too_many), "class definitions");
    });
    assert!(took < QUICK, "{took:?}");
    // 65 536 one-field definitions: bounded by the input, not amplified
    assert!(mem < 64 * too_many.len(), "{mem} bytes for {} input bytes", too_many.len());
    let strict = Limits::default().with_max_class_defs(10);
    assert_limit(h2::from_slice_with_limits(&flood(11), strict), "class definitions");
    // the same through type names: a typed list whose type is a fresh string each time
    let mut types = Vec::new();
    for i in 0..11u8 {
        types.extend_from_slice(&[0x71, 0x01, b'a' + i]);
    }
    let bytes = [types, vec![0x90; 11]].concat();
    assert_limit(h2::from_slice_with_limits(&bytes, strict), "type names");
}

// ---- reference fan-out ----

#[test]
fn reference_fan_out_is_not_expanded() {
    // [big, Q1, Q1, ... x 200 000]: a 60 KB list referenced 200 000 times (12 GB if expanded)
    let n = 200_000usize;
    let big = Value::list(vec![Value::string("x".repeat(60_000))]);
    let mut items = vec![big];
    items.extend(std::iter::repeat(Value::Ref(1)).take(n));
    let bytes = h2::to_vec(&Value::list(items)).expect("encodes");
    let (v, mem, took) = measure(|| h2::from_slice(&bytes).expect("decodes"));
    assert!(took < QUICK, "{took:?}");
    assert!(mem < 16 * MIB, "{mem} bytes for {} input bytes", bytes.len());
    match v {
        Value::List(l) => assert!(l.items[1..].iter().all(|x| *x == Value::Ref(1))),
        other => panic!("{other}"),
    }
    // serde: a shared value comes back as clones of one Arc, never as copies
    use hessian::serde::Shared;
    let shared = Shared::new(vec!["x".repeat(60_000)]);
    let bytes = hessian::serde::to_vec(&vec![shared; n]).expect("encodes");
    let (v, mem, took) = measure(|| hessian::serde::from_slice::<Vec<Shared<Vec<String>>>>(&bytes).expect("decodes"));
    assert!(took < QUICK && mem < 16 * MIB, "{took:?}, {mem} bytes");
    assert!(v.iter().all(|s| std::sync::Arc::ptr_eq(&s.0, &v[0].0)));
    // into a type that cannot share, references are copied up to `max_ref_copy_bytes` (16 MiB
    // by default), then refused
    let (r, mem, _) = measure(|| hessian::serde::from_slice::<Vec<Vec<String>>>(&bytes));
    let e = r.expect_err("200 000 copies of 60 KB");
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "bytes re-read to copy references", .. }), "{e}");
    assert!(mem < 24 * MIB, "{mem} bytes");
    let limits = Limits::default().with_max_ref_copy_bytes(MIB as u64);
    let (r, mem, _) = measure(|| hessian::serde::from_slice_with_limits::<Vec<Vec<String>>>(&bytes, limits));
    assert!(r.is_err());
    assert!(mem < 4 * MIB, "{mem} bytes");
    // Hessian 1.0.2 keeps references explicit too
    let mut items = vec![Value::list(vec![Value::string("x".repeat(60_000))])];
    items.extend(std::iter::repeat(Value::Ref(1)).take(n));
    let bytes = h1::to_vec(&Value::list(items)).expect("encodes");
    let (r, mem, took) = measure(|| h1::from_slice(&bytes));
    assert!(took < QUICK && mem < 16 * MIB, "{took:?}, {mem} bytes");
    // ... and so does the conversion the RPC layer applies to Hessian 1 and Burlap arguments
    let v = r.expect("decodes");
    let (h2_shaped, mem, took) = measure(|| hessian::convert::to_h2(&v));
    assert!(took < QUICK && mem < 16 * MIB, "{took:?}, {mem} bytes");
    match h2_shaped {
        Value::List(l) => assert!(l.items[1..].iter().all(|x| matches!(x, Value::Ref(_)))),
        other => panic!("{other}"),
    }
}

// ---- huge declared lengths ----

#[test]
fn huge_declared_lengths_allocate_nothing_up_front() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("h2 list", b"X\x49\x7f\xff\xff\xff\x91".to_vec()),
        ("h2 typed list", b"V\x04[int\x49\x7f\xff\xff\xff\x91".to_vec()),
        ("h2 class fields", b"C\x01A\x49\x7f\xff\xff\xff\x01a".to_vec()),
        ("h2 string", b"S\xff\xffab".to_vec()),
        ("h2 string chunks", b"R\x00\x02abR\xff\xffab".to_vec()),
        ("h2 binary", b"B\xff\xffab".to_vec()),
        ("h1 list", b"Vl\x7f\xff\xff\xff\x49\x00\x00\x00\x01z".to_vec()),
        ("h1 string", b"S\xff\xffab".to_vec()),
        ("h1 binary", b"B\xff\xffab".to_vec()),
    ];
    for (name, bytes) in &cases {
        let decode = |limits: Limits| -> Vec<bool> {
            if name.starts_with("h2") {
                let mut d = h2::Decoder::from_reader(bytes.as_slice()).with_limits(limits);
                vec![h2::from_slice_with_limits(bytes, limits).is_err(), d.read_value().is_err()]
            } else {
                let mut d = h1::Decoder::from_reader(bytes.as_slice()).with_limits(limits);
                vec![h1::from_slice_with_limits(bytes, limits).is_err(), d.read_value().is_err()]
            }
        };
        for limits in [Limits::default(), Limits::unlimited()] {
            let (errs, mem, took) = measure(|| decode(limits));
            assert!(errs.iter().all(|e| *e), "{name}: must fail");
            assert!(mem < 256 * 1024, "{name}: {mem} bytes");
            assert!(took < QUICK, "{name}: {took:?}");
        }
    }
    // a Burlap list declaring 2^31-1 elements
    let b = b"<list><type></type><length>2147483647</length><int>1</int></list>";
    let (r, mem, _) = measure(|| burlap::from_slice_with_limits(b, Limits::unlimited()));
    assert!(r.is_err() && mem < 256 * 1024, "{r:?}, {mem} bytes");
}

#[test]
fn endless_streams_stop_at_a_limit() {
    use std::io::Read;
    // a variable-length list of ints that never ends, from a reader
    let endless = (&b"W"[..]).chain(std::io::repeat(0x90));
    let limits = Limits::default().with_max_collection_len(100_000);
    let (r, mem, took) = measure(|| h2::Decoder::from_reader(endless).with_limits(limits).read_value());
    assert_limit(r, "collection length");
    assert!(took < QUICK && mem < 16 * MIB, "{took:?}, {mem} bytes");
    // a string that is chunk after chunk (40 chunks of 32 768 units)
    let limits = Limits::default().with_max_string_len(1 << 20);
    let mut buf = Vec::new();
    for _ in 0..40 {
        buf.extend_from_slice(b"R\x80\x00");
        buf.extend(std::iter::repeat(b'a').take(0x8000));
    }
    let (r, mem, _) = measure(|| h2::Decoder::from_reader(buf.as_slice()).with_limits(limits).read_value());
    assert_limit(r, "string length");
    assert!(mem < 8 * MIB, "{mem} bytes");
    // binary chunks likewise
    let mut buf = Vec::new();
    for _ in 0..40 {
        buf.extend_from_slice(b"A\x80\x00");
        buf.extend(std::iter::repeat(7u8).take(0x8000));
    }
    let limits = Limits::default().with_max_binary_len(1 << 20);
    let (r, mem, _) = measure(|| h2::Decoder::from_reader(buf.as_slice()).with_limits(limits).read_value());
    assert_limit(r, "binary length");
    assert!(mem < 8 * MIB, "{mem} bytes");
    // the message-size limit applies to slices up front
    let limits = Limits::default().with_max_message_size(1000);
    assert_limit(h2::from_slice_with_limits(&[0x90; 1001], limits), "message size");
    assert_limit(h1::from_slice_with_limits(&[0x4e; 1001], limits), "message size");
    assert_limit(burlap::from_slice_with_limits(&[b' '; 1001], limits), "message size");
}

// ---- XML tricks in Burlap ----

#[test]
fn burlap_xml_entity_tricks_are_refused() {
    let laughs = br#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<string>&lol9;</string>"#;
    let external = br#"<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><string>&e;</string>"#;
    let param = br#"<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1/x.dtd"> %p;]><string>a</string>"#;
    for bytes in [&laughs[..], external, param] {
        let (r, mem, took) = measure(|| burlap::from_slice(bytes));
        match r {
            Err(e) => assert!(matches!(e.kind(), ErrorKind::Malformed(_)), "{e}"),
            Ok(v) => panic!("accepted a DOCTYPE: {v}"),
        }
        assert!(took < QUICK && mem < MIB, "{took:?}, {mem} bytes");
        assert!(burlap::from_reader(bytes).is_err());
    }
    // undeclared entities, huge or invalid character references
    for bytes in [
        &b"<string>&lol;</string>"[..],
        b"<string>&#99999999999999999999;</string>",
        b"<string>&#x110000;</string>",
        b"<string>&#xD800;</string>",
        b"<string>&#0;&#;</string>",
        b"<string><![CDATA[a]]><string>b</string></string>",
        b"<string>a<int>1</int></string>",
    ] {
        assert!(burlap::from_slice(bytes).is_err(), "{}", String::from_utf8_lossy(bytes));
    }
    // many character references are decoded linearly, under the string limit
    let many = [&b"<string>"[..], &b"&#65;".repeat(100_000), b"</string>"].concat();
    let (r, mem, took) = measure(|| burlap::from_slice(&many));
    assert_eq!(r.expect("decodes").as_str().map(str::len), Some(100_000));
    assert!(took < QUICK && mem < 8 * MIB, "{took:?}, {mem} bytes");
    let limits = Limits::default().with_max_string_len(1000);
    assert!(burlap::from_slice_with_limits(&many, limits).is_err());
}
