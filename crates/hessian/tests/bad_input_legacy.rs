//! Hostile and broken input for the Hessian 1 and Burlap decoders: every failure is a typed
//! error with an offset inside the input, never a panic, a hang, or an allocation sized by a
//! declared length; XML entity tricks are refused.

mod common;

use hessian::{burlap, h1, Error, ErrorKind, Limits};

/// The catalogue cases whose encodings are small enough to cut at every byte.
fn small_cases() -> Vec<(String, hessian::Value)> {
    common::cases().into_iter().filter(|(_, v)| burlap::to_vec(v).is_ok_and(|b| b.len() <= 3000)).collect()
}

fn assert_err_in(r: hessian::Result<hessian::Value>, len: usize, what: &str) -> Error {
    match r {
        Ok(v) => panic!("{what}: decoded {v} from bad input"),
        Err(e) => {
            assert!(e.offset() <= len as u64, "{what}: offset {} past input of {len} bytes ({e})", e.offset());
            e
        }
    }
}

/// A tiny deterministic generator for mutation tests.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn h1_every_truncation_is_an_error() {
    for (name, v) in small_cases() {
        let bytes = h1::to_vec(&v).unwrap();
        for cut in 0..bytes.len() {
            let e = assert_err_in(h1::from_slice(&bytes[..cut]), cut, &format!("{name} cut at {cut}"));
            assert!(h1::from_reader(&bytes[..cut]).is_err(), "{name} cut at {cut}: stream decoded ({e})");
        }
    }
}

#[test]
fn h1_unknown_codes_and_bad_lengths() {
    for code in 0u8..=255 {
        if b"NTFILDdSsXxBbVMRr".contains(&code) {
            continue;
        }
        let e = h1::from_slice(&[code, 0, 0, 0, 0]).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::UnexpectedCode { .. }), "{code:#x}: {e}");
        assert_eq!(e.offset(), 0);
    }
    let kind = |b: &[u8]| h1::from_slice(b).unwrap_err().into_kind();
    assert!(matches!(kind(b"S\xff\xffabc"), ErrorKind::LengthPastEnd { .. }));
    assert!(matches!(kind(b"B\xff\xffabc"), ErrorKind::LengthPastEnd { .. }));
    assert!(matches!(kind(b"Vl\x00\xff\xff\xffz"), ErrorKind::LengthPastEnd { .. }));
    assert!(matches!(kind(b"Vl\x7f\xff\xff\xffz"), ErrorKind::LimitExceeded { .. }));
    // a negative length is "length unknown", as HessianInput reads it
    assert!(h1::from_slice(b"Vl\xff\xff\xff\xffz").is_ok());
    assert!(matches!(kind(b"Vl\x00\x00\x00\x02I\x00\x00\x00\x01z"), ErrorKind::Malformed(_)));
    assert!(matches!(kind(b"R\x00\x00\x00\x00"), ErrorKind::RefOutOfRange { .. }));
    assert!(matches!(kind(b"Vl\x00\x00\x00\x01R\x00\x00\x00\x01z"), ErrorKind::RefOutOfRange { .. }));
    assert!(matches!(kind(b"rS\x00\x01a"), ErrorKind::UnexpectedCode { .. }));
    assert!(matches!(kind(b"s\x00\x01aI\x00\x00\x00\x01"), ErrorKind::UnexpectedCode { .. }));
    assert!(matches!(kind(b"S\x00\x01\xff"), ErrorKind::InvalidUtf8));
    assert!(matches!(kind(b"S\x00\x01\xed\xa0\xbd"), ErrorKind::LoneSurrogate(0xd83d)));
    assert!(matches!(kind(b"NN"), ErrorKind::TrailingBytes));
    // A declared length far beyond the input is refused before allocating, on streams too.
    assert!(h1::from_reader(&b"Vl\x7f\xff\xff\xffI\x00\x00\x00\x01"[..]).is_err());
}

#[test]
fn h1_limits_and_depth() {
    let deep = vec![b'V'; 100_000];
    let e = h1::from_slice(&deep).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "depth", .. }), "{e}");
    let deep_maps = b"Mt\x00\x00S\x00\x01a".repeat(10_000);
    assert!(matches!(h1::from_slice(&deep_maps).unwrap_err().kind(), ErrorKind::LimitExceeded { what: "depth", .. }));
    let limits = Limits { max_collection_len: 2, max_string_len: 3, max_binary_len: 3, ..Limits::default() };
    let v = h1::to_vec(&hessian::Value::list(vec![hessian::Value::Int(1); 3])).unwrap();
    assert!(matches!(h1::from_slice_with_limits(&v, limits).unwrap_err().kind(), ErrorKind::LimitExceeded { .. }));
    let s = h1::to_vec(&hessian::Value::string("abcd")).unwrap();
    assert!(matches!(h1::from_slice_with_limits(&s, limits).unwrap_err().kind(), ErrorKind::LimitExceeded { .. }));
    let b = h1::to_vec(&hessian::Value::Binary(vec![1; 4])).unwrap();
    assert!(matches!(h1::from_slice_with_limits(&b, limits).unwrap_err().kind(), ErrorKind::LimitExceeded { .. }));
}

#[test]
fn h1_envelopes_reject_garbage() {
    assert!(h1::call_from_slice(b"", hessian::Limits::default()).is_err());
    assert!(h1::call_from_slice(b"c\x01\x00", hessian::Limits::default()).is_err());
    assert!(h1::call_from_slice(b"c\x01\x00I\x00\x00\x00\x01z", hessian::Limits::default()).is_err());
    assert!(h1::call_from_slice(b"c\x01\x00m\x00\x02abI\x00\x00\x00\x01", hessian::Limits::default()).is_err());
    assert!(h1::call_from_slice(b"c\x01\x00m\x00\x02abzz", hessian::Limits::default()).is_err());
    assert!(h1::reply_from_slice(b"r\x01\x00", hessian::Limits::default()).is_err());
    assert!(h1::reply_from_slice(b"r\x01\x00I\x00\x00\x00\x01", hessian::Limits::default()).is_err());
    assert!(h1::reply_from_slice(b"r\x01\x00fS\x00\x04codeS\x00\x01xz", hessian::Limits::default()).is_err());
    assert!(h1::reply_from_slice(b"x", hessian::Limits::default()).is_err());
}

#[test]
fn h1_mutations_never_panic() {
    let mut rng = Lcg(7);
    let samples: Vec<Vec<u8>> = small_cases().iter().map(|(_, v)| h1::to_vec(v).unwrap()).collect();
    for i in 0..20_000 {
        let mut b = samples[i % samples.len()].clone();
        if b.is_empty() {
            continue;
        }
        for _ in 0..1 + rng.next() % 3 {
            let at = (rng.next() as usize) % b.len();
            b[at] = rng.next() as u8;
        }
        if let Err(e) = h1::from_slice(&b) {
            assert!(e.offset() <= b.len() as u64);
        }
        let _ = h1::from_reader(&b[..]);
    }
}

#[test]
fn burlap_every_truncation_is_an_error() {
    for (name, v) in small_cases() {
        let bytes = burlap::to_vec(&v).unwrap();
        for cut in 0..bytes.len() {
            assert_err_in(burlap::from_slice(&bytes[..cut]), cut, &format!("{name} cut at {cut}"));
            assert!(burlap::from_reader(&bytes[..cut]).is_err(), "{name} cut at {cut}: stream decoded");
        }
    }
}

/// A byte order mark counts in the offsets, from a slice and from a stream (quick-xml skips it
/// without counting it).
#[test]
fn burlap_offsets_count_a_byte_order_mark() {
    let plain = b"<list><int>1</int><int>x</int></list>".to_vec();
    let at = burlap::from_slice(&plain).unwrap_err().offset();
    let mut marked = b"\xef\xbb\xbf".to_vec();
    marked.extend(&plain);
    assert_eq!(burlap::from_slice(&marked).unwrap_err().offset(), at + 3);
    assert_eq!(burlap::from_reader(&marked[..]).unwrap_err().offset(), at + 3);
    assert_eq!(burlap::from_slice(&marked[..3]).unwrap_err().offset(), 3);
}

fn burlap_err(xml: &str) -> ErrorKind {
    let r = burlap::from_slice(xml.as_bytes());
    assert_err_in(r, xml.len(), xml).into_kind()
}

#[test]
fn burlap_malformed_xml_is_a_typed_error() {
    for xml in [
        "<int>1</long>",
        "<int>abc</int>",
        "<int>99999999999</int>",
        "<long>1.5</long>",
        "<double>1,5</double>",
        "<boolean>2</boolean>",
        "<date>2008-01-10</date>",
        "<date>20081310T000000.000Z</date>",
        "<base64>A*==</base64>",
        "<base64>A</base64>",
        "<foo>1</foo>",
        "<type>x</type>",
        "hello",
        "<string>a<b/></string>",
        "<string>a & b</string>",
        "<string>&foo;</string>",
        "<string>&#0;</string>",
        "<string>&#x110000;</string>",
        "<list><type></type><length>5</length><int>1</int></list>",
        "<list><type></type><length>x</length></list>",
        "<map><type></type><int>1</int></map>",
        "<remote><type>t</type><int>1</int></remote>",
        "<remote/>",
        "<null>x</null>",
        "<int>1</int><int>2</int>",
        "</int>",
        "<int>1",
        "<![CDATA[x]]>",
    ] {
        let k = burlap_err(xml);
        assert!(
            matches!(
                k,
                ErrorKind::Malformed(_)
                    | ErrorKind::UnexpectedEof
                    | ErrorKind::TrailingBytes
                    | ErrorKind::LimitExceeded { .. }
            ),
            "{xml}: {k}"
        );
    }
    assert!(matches!(burlap_err("<ref>0</ref>"), ErrorKind::RefOutOfRange { .. }));
    assert!(matches!(burlap_err("<string>\u{0}\u{0}&#xD83D;</string>"), ErrorKind::LoneSurrogate(0xd83d)));
    assert!(matches!(burlap::from_slice(b"<string>\xff</string>").unwrap_err().kind(), ErrorKind::InvalidUtf8));
}

#[test]
fn burlap_never_expands_entities() {
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<string>&lol3;</string>"#;
    assert!(matches!(burlap_err(laughs), ErrorKind::Malformed(_)));
    // Without a DTD an undeclared entity is simply unknown.
    assert!(matches!(burlap_err("<string>&lol3;</string>"), ErrorKind::Malformed(_)));
    let external = r#"<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><string>&e;</string>"#;
    assert!(matches!(burlap_err(external), ErrorKind::Malformed(_)));
    // The predefined entities and character references are fine, whitespace and comments too.
    let ok = "<?xml version=\"1.0\"?>\n<!-- c --> <list> <type></type> <length>1</length>\n <string> &lt;&amp;&gt;&quot;&apos;&#60;&#x1F600;&#xD83D;&#xDE00; </string> </list> ";
    let v = burlap::from_slice(ok.as_bytes()).unwrap();
    assert_eq!(v, hessian::Value::list(vec![hessian::Value::string(" <&>\"'<\u{1f600}\u{1f600} ")]));
    assert_eq!(burlap::from_slice(b"<null/>").unwrap(), hessian::Value::Null);
    assert_eq!(burlap::from_slice(b"<string/>").unwrap(), hessian::Value::string(""));
}

#[test]
fn burlap_limits_and_depth() {
    let deep = "<list>".repeat(100_000);
    assert!(matches!(burlap_err(&deep), ErrorKind::LimitExceeded { what: "depth", .. }));
    let deep_maps = "<map><type></type><string>a</string>".repeat(10_000);
    assert!(matches!(burlap_err(&deep_maps), ErrorKind::LimitExceeded { what: "depth", .. }));
    let huge_len = "<list><type></type><length>99999999999</length></list>";
    assert!(matches!(burlap_err(huge_len), ErrorKind::LimitExceeded { .. }));
    let limits = Limits { max_collection_len: 2, max_string_len: 3, max_binary_len: 3, ..Limits::default() };
    let lim = |xml: &str| burlap::from_slice_with_limits(xml.as_bytes(), limits).unwrap_err().into_kind();
    assert!(matches!(lim("<list><int>1</int><int>1</int><int>1</int></list>"), ErrorKind::LimitExceeded { .. }));
    assert!(matches!(lim("<string>abcd</string>"), ErrorKind::LimitExceeded { .. }));
    assert!(matches!(lim("<base64>AAAAAAAA</base64>"), ErrorKind::LimitExceeded { .. }));
}

#[test]
fn burlap_envelopes_reject_garbage() {
    for xml in [
        "",
        "<burlap:call>",
        "<burlap:call><int>1</int></burlap:call>",
        "<burlap:call><method>m</method><int>1</int>",
        "<burlap:reply></burlap:reply>",
        "<burlap:reply><int>1</int><int>2</int></burlap:reply>",
        "<burlap:reply><fault><string>code</string></fault></burlap:reply>",
        "<int>1</int>",
    ] {
        assert!(
            burlap::call_from_slice(xml.as_bytes(), hessian::Limits::default()).is_err()
                && burlap::reply_from_slice(xml.as_bytes(), hessian::Limits::default()).is_err(),
            "{xml}"
        );
    }
}

#[test]
fn burlap_mutations_never_panic() {
    let mut rng = Lcg(11);
    let samples: Vec<Vec<u8>> = small_cases().iter().map(|(_, v)| burlap::to_vec(v).unwrap()).collect();
    let alphabet = b"<>/&;#x0123456789abcdefghijklmnopqrstuvwxyz =\"'!-?[]\xff\xed\xa0";
    for i in 0..20_000 {
        let mut b = samples[i % samples.len()].clone();
        for _ in 0..1 + rng.next() % 3 {
            let at = (rng.next() as usize) % b.len();
            b[at] = alphabet[(rng.next() as usize) % alphabet.len()];
        }
        if let Err(e) = burlap::from_slice(&b) {
            assert!(e.offset() <= b.len() as u64);
        }
        let _ = burlap::from_reader(&b[..]);
    }
}
