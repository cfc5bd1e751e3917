//! The serde functions of Hessian 1 and Burlap behind one trait, and the checks against the
//! dynamic path (`FORMAT::to_vec(&to_value(v))`, `from_value(FORMAT::from_slice(b))`) that the
//! serde tests of both formats make (`serde_h1.rs`, `serde_burlap.rs`, `serde_shared.rs`), written
//! once.

use super::serde_types::*;
use hessian::read::{IoRead, SliceRead};
use hessian::serde::de::Deserializer;
use hessian::serde::serializer::{SerdeEncoder, Serializer};
use hessian::serde::{from_value, to_value, Date, Shared};
use hessian::token::TokenRead;
use hessian::{ErrorKind, Limits, Value};
use hessian_testkit::structs;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::io::BufReader;

/// One format's serde functions and the dynamic path they are checked against.
pub trait Format {
    /// The format's name in assertion messages.
    const NAME: &'static str;
    /// Whether the native decoder may succeed where the dynamic path fails with a reference
    /// found where a plain type was expected (the native one copies the referenced value;
    /// allowed in the mutation tests of Burlap, whose seeds hold such references).
    const COPIES_REFS: bool;
    /// Whether [`decode_every_way`] also checks skipping (`IgnoredAny`) against the dynamic
    /// path (Burlap) or only that it does not panic (Hessian 1).
    const AGREES_SKIPPING: bool;
    /// How the opening of a reference looks in the bytes.
    const REF: &'static str;
    /// How a list ends in the bytes.
    const LIST_END: &'static str;
    /// How a list that declares its length ([`list_declaring`](Self::list_declaring)) ends
    /// (Hessian 2: it does not, it is read by count).
    const DECLARED_LIST_END: &'static str;
    /// The shortest null, as other writers may write it (Burlap's encoder writes the longer
    /// `<null></null>`).
    const NULL: &'static [u8];
    /// The shortest empty list, as other writers may write it.
    const EMPTY_LIST: &'static [u8];
    /// The opening of an untyped list without a length (its elements and its
    /// [end](Self::LIST_END) to follow).
    const LIST_START: &'static [u8];
    /// Whether a string decoded from a slice can be borrowed from it as a `&str` (Burlap's
    /// decoder gives every string as text it copied out of the XML).
    const BORROWS: bool;
    /// The format's encoder into a `Vec`, which the one serde [`Serializer`] writes through.
    type Encoder: SerdeEncoder<Writer = Vec<u8>>;
    /// The format's decoder over a slice, which the one serde [`Deserializer`] reads.
    type SliceDecoder<'de>: TokenRead<'de>;
    /// The format's decoder over a reader of a slice.
    type ReaderDecoder<'a>: TokenRead<'static>;
    /// `FORMAT::Serializer::new(Vec::new())`.
    fn serializer() -> Serializer<Self::Encoder>;
    /// `FORMAT::Decoder::from_slice(b)`.
    fn decoder(b: &[u8]) -> Self::SliceDecoder<'_>;
    /// `FORMAT::Deserializer::from_slice(b)`.
    fn deserializer(b: &[u8]) -> Deserializer<'_, Self::SliceDecoder<'_>>;
    /// `FORMAT::Deserializer::from_reader(b)`.
    fn reader_deserializer(b: &[u8]) -> Deserializer<'static, Self::ReaderDecoder<'_>>;
    /// How an int ends in the bytes (its last byte, its end tag).
    const INT_END: &'static str;
    /// Where an out-of-range reference is reported in `bytes` that hold one reference.
    fn ref_error_at(bytes: &[u8]) -> u64;
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>>;
    fn to_writer<T: ?Sized + Serialize>(w: &mut Vec<u8>, v: &T) -> hessian::Result<()>;
    fn from_slice<'de, T: Deserialize<'de>>(b: &'de [u8]) -> hessian::Result<T>;
    fn from_slice_with_limits<'de, T: Deserialize<'de>>(b: &'de [u8], limits: Limits) -> hessian::Result<T>;
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T>;
    fn value_to_vec(v: &Value) -> hessian::Result<Vec<u8>>;
    fn value_from_slice(b: &[u8]) -> hessian::Result<Value>;
    /// The offset of the first string `s` written in `bytes` (short, in one chunk).
    fn string_at(bytes: &[u8], s: &str) -> u64;
    /// `bytes` as an assertion message shows them.
    fn show(bytes: &[u8]) -> String;
    /// Where the first struct named `class` (its value, which a missing field is reported at)
    /// starts in `bytes`.
    fn struct_at(bytes: &[u8], class: &str) -> u64;
    /// A map typed `class` (empty: untyped, as Java writes a `HashMap`'s type in Hessian 1) whose
    /// keys and values are `entries`, as Java writes it.
    fn typed_map(class: &str, entries: &[u8]) -> Vec<u8>;
    /// The opening of an untyped list that declares `len` elements (its elements and its
    /// [end](Self::DECLARED_LIST_END) to follow).
    fn list_declaring(len: i32) -> Vec<u8>;
    /// Where an unknown field `field` of the first struct named `class` in `bytes` is reported:
    /// at the key that names it (Hessian 1, Burlap) or, as a Hessian 2 instance does not name
    /// its fields (its class definition does), at the instance.
    fn field_at(bytes: &[u8], class: &str, field: &str) -> u64 {
        let _ = class;
        Self::string_at(bytes, field)
    }
}

/// Hessian 2.0.
pub struct H2;
/// Hessian 1.0.2.
pub struct H1;
/// Burlap 1.0.
pub struct Burlap;

impl Format for H2 {
    const NAME: &'static str = "Hessian 2";
    const COPIES_REFS: bool = false;
    const AGREES_SKIPPING: bool = false;
    const REF: &'static str = "Q";
    const NULL: &'static [u8] = b"N";
    const EMPTY_LIST: &'static [u8] = b"\x78";
    const LIST_START: &'static [u8] = b"W";
    const BORROWS: bool = true;
    type Encoder = hessian::h2::Encoder<Vec<u8>>;
    type SliceDecoder<'de> = hessian::h2::Decoder<'de, SliceRead<'de>>;
    type ReaderDecoder<'a> = hessian::h2::Decoder<'static, IoRead<&'a [u8]>>;
    fn serializer() -> Serializer<Self::Encoder> {
        hessian::serde::h2::Serializer::new(Vec::new())
    }
    fn decoder(b: &[u8]) -> Self::SliceDecoder<'_> {
        hessian::h2::Decoder::from_slice(b)
    }
    fn deserializer(b: &[u8]) -> Deserializer<'_, Self::SliceDecoder<'_>> {
        hessian::serde::h2::Deserializer::from_slice(b)
    }
    fn reader_deserializer(b: &[u8]) -> Deserializer<'static, Self::ReaderDecoder<'_>> {
        hessian::serde::h2::Deserializer::from_reader(b)
    }
    const LIST_END: &'static str = "Z";
    const DECLARED_LIST_END: &'static str = "";
    const INT_END: &'static str = "\x0c";
    /// At the `Q`.
    fn ref_error_at(bytes: &[u8]) -> u64 {
        find(bytes, Self::REF)
    }
    /// The compact string code (length below 32), the string.
    fn string_at(bytes: &[u8], s: &str) -> u64 {
        let code = [&[s.len() as u8][..], s.as_bytes()].concat();
        bytes.windows(code.len()).position(|w| w == code.as_slice()).expect("the string") as u64
    }
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>> {
        hessian::serde::h2::to_vec(v)
    }
    fn to_writer<T: ?Sized + Serialize>(w: &mut Vec<u8>, v: &T) -> hessian::Result<()> {
        hessian::serde::h2::to_writer(w, v)
    }
    fn from_slice<'de, T: Deserialize<'de>>(b: &'de [u8]) -> hessian::Result<T> {
        hessian::serde::h2::from_slice(b)
    }
    fn from_slice_with_limits<'de, T: Deserialize<'de>>(b: &'de [u8], limits: Limits) -> hessian::Result<T> {
        hessian::serde::h2::from_slice_with_limits(b, limits)
    }
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T> {
        hessian::serde::h2::from_reader(b)
    }
    fn value_to_vec(v: &Value) -> hessian::Result<Vec<u8>> {
        hessian::h2::to_vec(v)
    }
    fn value_from_slice(b: &[u8]) -> hessian::Result<Value> {
        hessian::h2::from_slice(b)
    }
    fn show(bytes: &[u8]) -> String {
        format!("{bytes:02x?}")
    }
    /// The instance after the class definition `C <class> …`: the message's first, so the
    /// first `0x60` (object of definition 0) after the definition's start.
    fn struct_at(bytes: &[u8], class: &str) -> u64 {
        let def = [&[b'C', class.len() as u8][..], class.as_bytes()].concat();
        let at = find_bytes(bytes, &def);
        at + find_bytes(&bytes[at as usize..], &[0x60])
    }
    fn field_at(bytes: &[u8], class: &str, _field: &str) -> u64 {
        Self::struct_at(bytes, class)
    }
    /// `X` and the length (a fixed-length list: no end follows).
    fn list_declaring(len: i32) -> Vec<u8> {
        [&[b'X'][..], &Self::value_to_vec(&Value::Int(len)).unwrap()].concat()
    }
    /// `M`, the type as a string, the entries, `Z`.
    fn typed_map(class: &str, entries: &[u8]) -> Vec<u8> {
        [&b"M"[..], &Self::value_to_vec(&Value::string(class)).unwrap(), entries, b"Z"].concat()
    }
}

impl Format for H1 {
    const NAME: &'static str = "Hessian 1";
    const COPIES_REFS: bool = false;
    const AGREES_SKIPPING: bool = false;
    const REF: &'static str = "R";
    const NULL: &'static [u8] = b"N";
    const EMPTY_LIST: &'static [u8] = b"Vz";
    const LIST_START: &'static [u8] = b"V";
    const BORROWS: bool = true;
    type Encoder = hessian::h1::Encoder<Vec<u8>>;
    type SliceDecoder<'de> = hessian::h1::Decoder<'de, SliceRead<'de>>;
    type ReaderDecoder<'a> = hessian::h1::Decoder<'static, IoRead<&'a [u8]>>;
    fn serializer() -> Serializer<Self::Encoder> {
        hessian::serde::h1::Serializer::new(Vec::new())
    }
    fn decoder(b: &[u8]) -> Self::SliceDecoder<'_> {
        hessian::h1::Decoder::from_slice(b)
    }
    fn deserializer(b: &[u8]) -> Deserializer<'_, Self::SliceDecoder<'_>> {
        hessian::serde::h1::Deserializer::from_slice(b)
    }
    fn reader_deserializer(b: &[u8]) -> Deserializer<'static, Self::ReaderDecoder<'_>> {
        hessian::serde::h1::Deserializer::from_reader(b)
    }
    const LIST_END: &'static str = "z";
    const DECLARED_LIST_END: &'static str = "z";
    const INT_END: &'static str = "\x0c";
    /// At the `R`.
    fn ref_error_at(bytes: &[u8]) -> u64 {
        find(bytes, Self::REF)
    }
    /// `S`, the length in two bytes, the string.
    fn string_at(bytes: &[u8], s: &str) -> u64 {
        let code = [&[b'S', 0, s.len() as u8][..], s.as_bytes()].concat();
        bytes.windows(code.len()).position(|w| w == code.as_slice()).expect("the string") as u64
    }
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>> {
        hessian::serde::h1::to_vec(v)
    }
    fn to_writer<T: ?Sized + Serialize>(w: &mut Vec<u8>, v: &T) -> hessian::Result<()> {
        hessian::serde::h1::to_writer(w, v)
    }
    fn from_slice<'de, T: Deserialize<'de>>(b: &'de [u8]) -> hessian::Result<T> {
        hessian::serde::h1::from_slice(b)
    }
    fn from_slice_with_limits<'de, T: Deserialize<'de>>(b: &'de [u8], limits: Limits) -> hessian::Result<T> {
        hessian::serde::h1::from_slice_with_limits(b, limits)
    }
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T> {
        hessian::serde::h1::from_reader(b)
    }
    fn value_to_vec(v: &Value) -> hessian::Result<Vec<u8>> {
        hessian::h1::to_vec(v)
    }
    fn value_from_slice(b: &[u8]) -> hessian::Result<Value> {
        hessian::h1::from_slice(b)
    }
    fn show(bytes: &[u8]) -> String {
        format!("{bytes:02x?}")
    }
    /// The typed map `M t <class>`.
    fn struct_at(bytes: &[u8], class: &str) -> u64 {
        find_bytes(bytes, &[&[b'M', b't', 0, class.len() as u8][..], class.as_bytes()].concat())
    }
    /// `V l` and the length in four bytes.
    fn list_declaring(len: i32) -> Vec<u8> {
        [&b"Vl"[..], &len.to_be_bytes()].concat()
    }
    /// `M t`, the type's length in two bytes, the type, the entries, `z`.
    fn typed_map(class: &str, entries: &[u8]) -> Vec<u8> {
        [&[b'M', b't', 0, class.len() as u8][..], class.as_bytes(), entries, b"z"].concat()
    }
}

impl Format for Burlap {
    const NAME: &'static str = "Burlap";
    const COPIES_REFS: bool = true;
    const AGREES_SKIPPING: bool = true;
    const REF: &'static str = "<ref>";
    const NULL: &'static [u8] = b"<null/>";
    const EMPTY_LIST: &'static [u8] = b"<list/>";
    const LIST_START: &'static [u8] = b"<list>";
    const BORROWS: bool = false;
    type Encoder = hessian::burlap::Encoder<Vec<u8>>;
    type SliceDecoder<'de> = hessian::burlap::Decoder<&'de [u8]>;
    type ReaderDecoder<'a> = hessian::burlap::Decoder<BufReader<&'a [u8]>>;
    fn serializer() -> Serializer<Self::Encoder> {
        hessian::serde::burlap::Serializer::new(Vec::new())
    }
    fn decoder(b: &[u8]) -> Self::SliceDecoder<'_> {
        hessian::burlap::Decoder::from_slice(b)
    }
    fn deserializer(b: &[u8]) -> Deserializer<'_, Self::SliceDecoder<'_>> {
        hessian::serde::burlap::Deserializer::from_slice(b)
    }
    fn reader_deserializer(b: &[u8]) -> Deserializer<'static, Self::ReaderDecoder<'_>> {
        hessian::serde::burlap::Deserializer::from_reader(b)
    }
    const LIST_END: &'static str = "</list>";
    const DECLARED_LIST_END: &'static str = "</list>";
    const INT_END: &'static str = "</int>";
    /// After the `<ref>…</ref>`, where the XML reader stopped.
    fn ref_error_at(bytes: &[u8]) -> u64 {
        find(bytes, "</ref>") + "</ref>".len() as u64
    }
    fn to_vec<T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>> {
        hessian::serde::burlap::to_vec(v)
    }
    fn to_writer<T: ?Sized + Serialize>(w: &mut Vec<u8>, v: &T) -> hessian::Result<()> {
        hessian::serde::burlap::to_writer(w, v)
    }
    fn from_slice<'de, T: Deserialize<'de>>(b: &'de [u8]) -> hessian::Result<T> {
        hessian::serde::burlap::from_slice(b)
    }
    fn from_slice_with_limits<'de, T: Deserialize<'de>>(b: &'de [u8], limits: Limits) -> hessian::Result<T> {
        hessian::serde::burlap::from_slice_with_limits(b, limits)
    }
    fn from_reader<T: DeserializeOwned>(b: &[u8]) -> hessian::Result<T> {
        hessian::serde::burlap::from_reader(b)
    }
    fn value_to_vec(v: &Value) -> hessian::Result<Vec<u8>> {
        hessian::burlap::to_vec(v)
    }
    fn value_from_slice(b: &[u8]) -> hessian::Result<Value> {
        hessian::burlap::from_slice(b)
    }
    fn string_at(bytes: &[u8], s: &str) -> u64 {
        find(bytes, &format!("<string>{s}</string>"))
    }
    fn show(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }
    /// The typed map `<map><type>class</type>`.
    fn struct_at(bytes: &[u8], class: &str) -> u64 {
        find(bytes, &format!("<map><type>{class}</type>"))
    }
    fn list_declaring(len: i32) -> Vec<u8> {
        format!("<list><length>{len}</length>").into_bytes()
    }
    /// `<map><type>class</type>`, the entries, `</map>`.
    fn typed_map(class: &str, entries: &[u8]) -> Vec<u8> {
        [format!("<map><type>{class}</type>").as_bytes(), entries, b"</map>"].concat()
    }
}

/// The dynamic path's bytes for `v`.
pub fn oracle_bytes<F: Format, T: ?Sized + Serialize>(v: &T) -> hessian::Result<Vec<u8>> {
    F::value_to_vec(&to_value(v)?)
}

/// The dynamic path's decoding of `bytes`.
pub fn oracle_decode<F: Format, T: DeserializeOwned>(bytes: &[u8]) -> hessian::Result<T> {
    from_value(F::value_from_slice(bytes)?)
}

/// The offset of the first occurrence of `needle` in `bytes`.
pub fn find(bytes: &[u8], needle: &str) -> u64 {
    let n = needle.as_bytes();
    bytes.windows(n.len()).position(|w| w == n).unwrap_or_else(|| panic!("{needle} not in the input")) as u64
}

/// The offset of the first occurrence of `needle` in `bytes`.
pub fn find_bytes(bytes: &[u8], needle: &[u8]) -> u64 {
    bytes.windows(needle.len()).position(|w| w == needle).unwrap_or_else(|| panic!("{needle:02x?} not in the input"))
        as u64
}

/// The offset of the first value in `bytes` written as the format's value encoder writes `v`.
pub fn value_at<F: Format>(bytes: &[u8], v: &Value) -> u64 {
    find_bytes(bytes, &F::value_to_vec(v).unwrap())
}

/// The native bytes are the dynamic path's (also through `to_writer`), and both decoders, from
/// a slice and from a reader, give the value back.
pub fn check<F: Format, T: Serialize + DeserializeOwned + PartialEq + Debug>(v: &T) -> Vec<u8> {
    let name = F::NAME;
    let ours = F::to_vec(v).unwrap_or_else(|e| panic!("{name}: {v:?}: {e}"));
    let oracle = oracle_bytes::<F, T>(v).unwrap();
    assert_eq!(F::show(&ours), F::show(&oracle), "{name}: bytes of {v:?}");
    assert_eq!(ours, oracle, "{name}: bytes of {v:?}");
    let mut w = Vec::new();
    F::to_writer(&mut w, v).unwrap();
    assert_eq!(w, ours, "{name}: to_writer of {v:?}");
    assert_eq!(&F::from_slice::<T>(&ours).unwrap_or_else(|e| panic!("{name}: {v:?}: {e}")), v);
    assert_eq!(&F::from_reader::<T>(&ours).unwrap(), v, "{name}");
    assert_eq!(&oracle_decode::<F, T>(&ours).unwrap(), v, "{name}");
    ours
}

/// The native bytes are the dynamic path's (for values that do not come back equal, e.g. NaN
/// or `Some(None)`); returns them.
pub fn same_bytes<F: Format, T: ?Sized + Serialize + Debug>(v: &T) -> Vec<u8> {
    let ours = F::to_vec(v).unwrap_or_else(|e| panic!("{}: {v:?}: {e}", F::NAME));
    assert_eq!(ours, oracle_bytes::<F, T>(v).unwrap(), "{}: bytes of {v:?}", F::NAME);
    ours
}

/// Both decoders agree on `bytes`: equal values (compared by `Debug`, so that NaN equals NaN),
/// or both an error (for a format that [copies references](Format::COPIES_REFS), the native
/// one may also succeed where the dynamic one found a reference). A reader decodes whatever a
/// slice decodes. Returns the native result.
pub fn agree<F: Format, T: DeserializeOwned + Debug>(bytes: &[u8]) -> hessian::Result<T> {
    let native = F::from_slice::<T>(bytes);
    let dynamic = oracle_decode::<F, T>(bytes);
    let (name, shown) = (F::NAME, F::show(bytes));
    match (&native, &dynamic) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}: decoding {shown}"),
        (Err(e), _) => {
            assert!(e.offset() <= bytes.len() as u64, "{name}: offset {} past the input: {e}", e.offset());
            assert!(dynamic.is_err(), "{name}: only the native path failed on {shown}: {e}");
        }
        (Ok(_), Err(e))
            if F::COPIES_REFS && matches!(e.kind(), ErrorKind::InvalidType { found, .. } if found == "ref") => {}
        (Ok(a), Err(e)) => panic!("{name}: only the dynamic path failed on {shown}: {e} (native: {a:?})"),
    }
    let streamed = F::from_reader::<T>(bytes);
    if let (Ok(v), Ok(_)) = (&native, &dynamic) {
        // a reader stops after the value: it decodes whatever a slice decodes
        assert_eq!(format!("{:?}", streamed.as_ref().ok()), format!("{:?}", Some(v)), "{name}: reading {shown}");
    }
    native
}

/// Both decoders succeed on `bytes` with equal values, and so does a reader; returns the
/// native value.
pub fn same_decode<F: Format, T: DeserializeOwned + Debug>(bytes: &[u8]) -> T {
    assert!(oracle_decode::<F, T>(bytes).is_ok(), "{}: the dynamic path failed on {}", F::NAME, F::show(bytes));
    agree::<F, T>(bytes).unwrap_or_else(|e| panic!("{}: {e}", F::NAME))
}

/// The body of each format's `generated_structs_match_the_dynamic_path` (whose generators
/// differ): for a generated `Scalars` and a list of colors (`true` for green), the native
/// bytes are the dynamic path's and both decoders agree on them.
pub fn generated_structs_match_the_dynamic_path<F: Format>(
    v: &Scalars,
    colors: Vec<bool>,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let bytes = same_bytes::<F, _>(v);
    proptest::prop_assert!(agree::<F, Scalars>(&bytes).is_ok());
    let colors: Vec<Color> = colors.into_iter().map(|g| if g { Color::Green } else { Color::Red }).collect();
    let bytes = same_bytes::<F, _>(&colors);
    proptest::prop_assert_eq!(agree::<F, Vec<Color>>(&bytes).unwrap(), colors);
    Ok(())
}

// ---- no panic, and the same results as the dynamic path, on any input ----

/// A tiny deterministic generator for mutation tests.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Decodes `bytes` into several types, natively (slice, reader, strict limits) and through the
/// dynamic path, and checks that the two agree.
pub fn decode_every_way<F: Format>(bytes: &[u8]) {
    let _ = agree::<F, Compound>(bytes);
    let _ = agree::<F, Vec<Shape>>(bytes);
    let _ = agree::<F, Vec<structs::Item>>(bytes);
    let _ = agree::<F, structs::w2::Order>(bytes);
    let _ = agree::<F, Value>(bytes);
    let _ = agree::<F, serde_json::Value>(bytes);
    let _ = agree::<F, BTreeMap<String, Option<Color>>>(bytes);
    let _ = agree::<F, (String, i64, f64, Date)>(bytes);
    if F::AGREES_SKIPPING {
        let _ = agree::<F, IgnoredAny>(bytes);
    } else {
        let _ = F::from_slice::<IgnoredAny>(bytes);
    }
    let _ = F::from_slice::<Vec<Shared<Value>>>(bytes);
    let _ = F::from_slice::<Person>(bytes);
    let strict = Limits::default().with_max_depth(3).with_max_collection_len(4).with_max_string_len(8).with_max_refs(5);
    let _ = F::from_slice_with_limits::<Compound>(bytes, strict);
    let _ = F::from_slice_with_limits::<serde_json::Value>(bytes, strict);
}

/// How a format's mutation test changes its seeds.
pub struct Mutations<'a> {
    /// Mutated copies of each seed.
    pub rounds: usize,
    /// What an insertion inserts (one chosen at random).
    pub inserts: &'a [&'a [u8]],
    /// How many bytes a deletion removes at most (`None`: exactly one).
    pub delete_up_to: Option<usize>,
}

/// Seeds in the format (a compound value, W1 and W2 structs, enums, a tuple, a Java enum as
/// Java writes it, and `extra`), each decoded every way and then in `m.rounds` copies changed by
/// one to three random edits (a byte replaced, the rest cut, an insertion, a deletion).
pub fn mutated_inputs_decode_as_the_dynamic_path<F: Format>(extra: Vec<Vec<u8>>, m: &Mutations) {
    let color = Value::typed_map(
        "com.example.Color",
        vec![("ordinal".into(), Value::Int(1)), ("name".into(), Value::string("Green"))],
    );
    let mut seeds = vec![
        F::to_vec(&compound()).unwrap(),
        F::to_vec(&structs::items(2)).unwrap(),
        F::to_vec(&structs::w2::request()).unwrap(),
        F::to_vec(&vec![Shape::Circle(1.0), Shape::Poly { sides: 1, name: "x".into() }]).unwrap(),
        F::to_vec(&("s", 1i64, 2.0f64, Date(3))).unwrap(),
        F::value_to_vec(&color).unwrap(),
    ];
    seeds.extend(extra);
    let mut rng = Lcg(0x5eed);
    for seed in &seeds {
        decode_every_way::<F>(seed);
        for _ in 0..m.rounds {
            let mut b = seed.clone();
            for _ in 0..=rng.next() % 3 {
                let i = rng.next() as usize % b.len().max(1);
                match rng.next() % 4 {
                    0 if !b.is_empty() => b[i] = rng.next() as u8,
                    1 if !b.is_empty() => b.truncate(i),
                    2 => {
                        let t = m.inserts[rng.next() as usize % m.inserts.len()];
                        let at = i.min(b.len());
                        b.splice(at..at, t.iter().copied());
                    }
                    _ if !b.is_empty() => {
                        let n = match m.delete_up_to {
                            Some(most) => (rng.next() as usize % most).min(b.len() - i),
                            None => 1,
                        };
                        b.drain(i..i + n);
                    }
                    _ => {}
                }
            }
            decode_every_way::<F>(&b);
        }
    }
}
