//! The optional date types (features `chrono` and `time`, which `cargo test` turns on through
//! `hessian-testkit`): they write the bytes of [`Date`] (whose bytes are Java's, checked in
//! `serde_java.rs`), truncate towards negative infinity as Java's `Date` does, and report dates
//! outside their range as errors at the date's offset.

use hessian::serde::{from_slice, h1, to_vec, Date};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "org.example.Stamped")]
struct WithDate {
    id: i32,
    at: Date,
    maybe: Option<Date>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "org.example.Stamped")]
struct WithChrono {
    id: i32,
    #[serde(with = "hessian::serde::date::chrono_utc")]
    at: chrono::DateTime<chrono::Utc>,
    #[serde(with = "hessian::serde::date::option_chrono_utc")]
    maybe: Option<chrono::DateTime<chrono::Utc>>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "org.example.Stamped")]
struct WithTime {
    id: i32,
    #[serde(with = "hessian::serde::date::offset_date_time")]
    at: time::OffsetDateTime,
    #[serde(with = "hessian::serde::date::option_offset_date_time")]
    maybe: Option<time::OffsetDateTime>,
}

const MILLIS: [i64; 6] = [0, 1, -1, 1_200_000_000_000, -86_400_001, 253_402_300_799_999];

fn chrono_at(ms: i64) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp_millis(ms).unwrap()
}

fn time_at(ms: i64) -> time::OffsetDateTime {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).unwrap()
}

#[test]
fn chrono_fields_write_dates_and_read_them_back_in_both_protocols() {
    for ms in MILLIS {
        for maybe in [None, Some(ms / 2)] {
            let plain = WithDate { id: 7, at: Date(ms), maybe: maybe.map(Date) };
            let ours = WithChrono { id: 7, at: chrono_at(ms), maybe: maybe.map(chrono_at) };
            let bytes = to_vec(&ours).unwrap();
            assert_eq!(bytes, to_vec(&plain).unwrap(), "{ms} {maybe:?}");
            assert_eq!(from_slice::<WithChrono>(&bytes).unwrap(), ours);
            let bytes1 = h1::to_vec(&ours).unwrap();
            assert_eq!(bytes1, h1::to_vec(&plain).unwrap());
            assert_eq!(h1::from_slice::<WithChrono>(&bytes1).unwrap(), ours);
        }
    }
}

#[test]
fn time_fields_write_dates_and_read_them_back_in_both_protocols() {
    for ms in MILLIS {
        for maybe in [None, Some(ms / 2)] {
            let plain = WithDate { id: 7, at: Date(ms), maybe: maybe.map(Date) };
            let ours = WithTime { id: 7, at: time_at(ms), maybe: maybe.map(time_at) };
            let bytes = to_vec(&ours).unwrap();
            assert_eq!(bytes, to_vec(&plain).unwrap(), "{ms} {maybe:?}");
            assert_eq!(from_slice::<WithTime>(&bytes).unwrap(), ours);
            let bytes1 = h1::to_vec(&ours).unwrap();
            assert_eq!(bytes1, h1::to_vec(&plain).unwrap());
            assert_eq!(h1::from_slice::<WithTime>(&bytes1).unwrap(), ours);
        }
    }
}

#[test]
fn sub_millisecond_times_truncate_towards_negative_infinity_like_java() {
    // 1.5 ms before the epoch is millisecond -2 (Java: new Date(-2) is the latest date not after it).
    let before = chrono::DateTime::from_timestamp_nanos(-1_500_000);
    assert_eq!(Date::from(before), Date(-2));
    assert_eq!(Date::from(chrono::DateTime::from_timestamp_nanos(1_500_000)), Date(1));
    let before = time::OffsetDateTime::from_unix_timestamp_nanos(-1_500_000).unwrap();
    assert_eq!(Date::from(before), Date(-2));
    assert_eq!(Date::from(time::OffsetDateTime::from_unix_timestamp_nanos(1_500_000).unwrap()), Date(1));
}

#[test]
fn dates_outside_the_rust_types_range_are_errors_at_the_dates_offset() {
    let far = WithDate { id: 7, at: Date(i64::MAX), maybe: None };
    let bytes = to_vec(&far).unwrap();
    // The object's fields start after the class definition and the object code; the date is
    // the second field, after the one-byte int.
    let at = bytes.iter().rposition(|&b| b == 0x4a).unwrap() as u64; // 'J': 64-bit date
    let e = from_slice::<WithChrono>(&bytes).unwrap_err();
    assert_eq!(e.offset(), at, "{e}");
    let e = from_slice::<WithTime>(&bytes).unwrap_err();
    assert_eq!(e.offset(), at, "{e}");
    let far = WithDate { id: 7, at: Date(0), maybe: Some(Date(i64::MIN)) };
    let bytes = to_vec(&far).unwrap();
    assert!(from_slice::<WithChrono>(&bytes).is_err());
    assert!(from_slice::<WithTime>(&bytes).is_err());
}
