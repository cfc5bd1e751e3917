//! Hostile and broken input that only Burlap can express: malformed XML, entity tricks and
//! character references, a byte order mark, and a list length too long for its number. Every
//! failure is a typed error with an offset inside the input, never a panic or an entity
//! expansion. The properties shared with Hessian 2 and Hessian 1 (truncation, limits, depth,
//! references, UTF-8, trailing bytes, envelopes, mutations) are in `bad_input.rs`.

use hessian::{burlap, ErrorKind};

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

/// The kind of the error of decoding `xml`, which must be inside it.
fn burlap_err(xml: &str) -> ErrorKind {
    let r = burlap::from_slice(xml.as_bytes());
    match r {
        Ok(v) => panic!("{xml}: decoded {v} from bad input"),
        Err(e) => {
            assert!(e.offset() <= xml.len() as u64, "{xml}: offset {} past the input ({e})", e.offset());
            e.into_kind()
        }
    }
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
    assert!(matches!(burlap_err("<string>\u{0}\u{0}&#xD83D;</string>"), ErrorKind::LoneSurrogate(0xd83d)));
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

/// A declared length that does not fit in an int is over the collection limit.
#[test]
fn burlap_list_length_past_an_int() {
    let huge_len = "<list><type></type><length>99999999999</length></list>";
    assert!(matches!(burlap_err(huge_len), ErrorKind::LimitExceeded { .. }));
}
