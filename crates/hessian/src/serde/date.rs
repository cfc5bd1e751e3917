//! Dates. serde's data model has no date type, so [`Date`] is a newtype struct with a private
//! name that this crate's serializer writes as a Hessian date (Java's `java.util.Date`) and
//! that other serde formats see as a plain `i64` of milliseconds.
//!
//! For `std::time::SystemTime` fields use `#[serde(with = "hessian::serde::date::system_time")]`
//! (or [`option_system_time`] for `Option<SystemTime>`). With the `chrono` feature,
//! `chrono::DateTime<Utc>` fields take `#[serde(with = "hessian::serde::date::chrono_utc")]`
//! (or `option_chrono_utc`); with the `time` feature, `time::OffsetDateTime` fields take
//! `#[serde(with = "hessian::serde::date::offset_date_time")]` (or `option_offset_date_time`).
//! They are written at millisecond precision (truncated towards negative infinity, as Java's
//! `Date` is); a date outside the range of the Rust type is a decode error.

use super::DATE_TOKEN;
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A Hessian date: milliseconds since the Unix epoch, UTC (Java's `java.util.Date`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Date(pub i64);

impl Date {
    /// The date `millis` milliseconds after the epoch.
    pub const fn from_millis(millis: i64) -> Self {
        Date(millis)
    }

    /// Milliseconds since the epoch.
    pub const fn millis(self) -> i64 {
        self.0
    }

    /// The date as a `SystemTime`.
    pub fn to_system_time(self) -> SystemTime {
        if self.0 >= 0 {
            UNIX_EPOCH + Duration::from_millis(self.0 as u64)
        } else {
            UNIX_EPOCH - Duration::from_millis(self.0.unsigned_abs())
        }
    }

    /// The date of a `SystemTime`, truncated to whole milliseconds (saturating far outside the
    /// range of `i64` milliseconds).
    pub fn from_system_time(t: SystemTime) -> Self {
        match t.duration_since(UNIX_EPOCH) {
            Ok(d) => Date(i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
            Err(e) => {
                let d = e.duration();
                // round towards negative infinity, as Java's Date does for pre-epoch instants
                let ms = d.as_millis() + u128::from(d.subsec_nanos() % 1_000_000 != 0);
                Date(i64::try_from(ms).map(|m| -m).unwrap_or(i64::MIN))
            }
        }
    }
}

impl From<SystemTime> for Date {
    fn from(t: SystemTime) -> Self {
        Date::from_system_time(t)
    }
}

impl From<Date> for SystemTime {
    fn from(d: Date) -> Self {
        d.to_system_time()
    }
}

impl Serialize for Date {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(DATE_TOKEN, &self.0)
    }
}

impl<'de> Deserialize<'de> for Date {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Date, D::Error> {
        d.deserialize_newtype_struct(DATE_TOKEN, DateVisitor)
    }
}

struct DateVisitor;

impl<'de> Visitor<'de> for DateVisitor {
    type Value = Date;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a date (milliseconds since the epoch)")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Date, E> {
        Ok(Date(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Date, E> {
        i64::try_from(v).map(Date).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Date, D::Error> {
        i64::deserialize(d).map(Date)
    }
}

/// `#[serde(with = "hessian::serde::date::system_time")]` for `SystemTime` fields.
pub mod system_time {
    use super::Date;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::time::SystemTime;

    /// Writes the time as a Hessian date (millisecond precision).
    pub fn serialize<S: Serializer>(t: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
        Date::from_system_time(*t).serialize(s)
    }

    /// Reads a Hessian date as a `SystemTime`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SystemTime, D::Error> {
        Date::deserialize(d).map(Date::to_system_time)
    }
}

/// `#[serde(with = "hessian::serde::date::option_system_time")]` for `Option<SystemTime>`
/// fields (`None` is `null`).
pub mod option_system_time {
    use super::Date;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::time::SystemTime;

    /// Writes the time as a Hessian date, or `null`.
    pub fn serialize<S: Serializer>(t: &Option<SystemTime>, s: S) -> Result<S::Ok, S::Error> {
        t.map(Date::from_system_time).serialize(s)
    }

    /// Reads a Hessian date or `null`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SystemTime>, D::Error> {
        Ok(Option::<Date>::deserialize(d)?.map(Date::to_system_time))
    }
}

#[cfg(feature = "chrono")]
impl From<chrono::DateTime<chrono::Utc>> for Date {
    /// Milliseconds since the epoch, rounded towards negative infinity (as Java's `Date`).
    fn from(t: chrono::DateTime<chrono::Utc>) -> Self {
        Date(t.timestamp_millis())
    }
}

#[cfg(feature = "chrono")]
impl Date {
    /// The date as a `chrono::DateTime<Utc>`; `None` outside chrono's range (about ±262,000 years).
    pub fn to_chrono(self) -> Option<chrono::DateTime<chrono::Utc>> {
        chrono::DateTime::from_timestamp_millis(self.0)
    }
}

#[cfg(feature = "time")]
impl From<time::OffsetDateTime> for Date {
    /// Milliseconds since the epoch, rounded towards negative infinity (as Java's `Date`).
    fn from(t: time::OffsetDateTime) -> Self {
        // Within `time`'s range (years -9999..=9999 by default) the milliseconds fit an i64.
        Date(t.unix_timestamp_nanos().div_euclid(1_000_000) as i64)
    }
}

#[cfg(feature = "time")]
impl Date {
    /// The date as a `time::OffsetDateTime` in UTC; `None` outside `time`'s range.
    pub fn to_offset_date_time(self) -> Option<time::OffsetDateTime> {
        time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(self.0) * 1_000_000).ok()
    }
}

/// A date that does not fit the Rust date type it is decoded into.
#[cfg(any(feature = "chrono", feature = "time"))]
fn out_of_range<E: de::Error>(d: Date, ty: &str) -> E {
    E::invalid_value(de::Unexpected::Signed(d.0), &format!("a date within the range of {ty}").as_str())
}

/// `#[serde(with = "hessian::serde::date::chrono_utc")]` for `chrono::DateTime<Utc>` fields
/// (feature `chrono`).
#[cfg(feature = "chrono")]
pub mod chrono_utc {
    use super::Date;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the time as a Hessian date (millisecond precision).
    pub fn serialize<S: Serializer>(t: &chrono::DateTime<chrono::Utc>, s: S) -> Result<S::Ok, S::Error> {
        Date::from(*t).serialize(s)
    }

    /// Reads a Hessian date as a `DateTime<Utc>`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<chrono::DateTime<chrono::Utc>, D::Error> {
        let date = Date::deserialize(d)?;
        date.to_chrono().ok_or_else(|| super::out_of_range(date, "chrono::DateTime<Utc>"))
    }
}

/// `#[serde(with = "hessian::serde::date::option_chrono_utc")]` for `Option<DateTime<Utc>>`
/// fields (`None` is `null`; feature `chrono`).
#[cfg(feature = "chrono")]
pub mod option_chrono_utc {
    use super::Date;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the time as a Hessian date, or `null`.
    pub fn serialize<S: Serializer>(t: &Option<chrono::DateTime<chrono::Utc>>, s: S) -> Result<S::Ok, S::Error> {
        t.map(Date::from).serialize(s)
    }

    /// Reads a Hessian date or `null`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<chrono::DateTime<chrono::Utc>>, D::Error> {
        match Option::<Date>::deserialize(d)? {
            None => Ok(None),
            Some(date) => date.to_chrono().map(Some).ok_or_else(|| super::out_of_range(date, "chrono::DateTime<Utc>")),
        }
    }
}

/// `#[serde(with = "hessian::serde::date::offset_date_time")]` for `time::OffsetDateTime`
/// fields (feature `time`; decoded in UTC).
#[cfg(feature = "time")]
pub mod offset_date_time {
    use super::Date;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the time as a Hessian date (millisecond precision).
    pub fn serialize<S: Serializer>(t: &time::OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
        Date::from(*t).serialize(s)
    }

    /// Reads a Hessian date as an `OffsetDateTime` in UTC.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<time::OffsetDateTime, D::Error> {
        let date = Date::deserialize(d)?;
        date.to_offset_date_time().ok_or_else(|| super::out_of_range(date, "time::OffsetDateTime"))
    }
}

/// `#[serde(with = "hessian::serde::date::option_offset_date_time")]` for
/// `Option<OffsetDateTime>` fields (`None` is `null`; feature `time`).
#[cfg(feature = "time")]
pub mod option_offset_date_time {
    use super::Date;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the time as a Hessian date, or `null`.
    pub fn serialize<S: Serializer>(t: &Option<time::OffsetDateTime>, s: S) -> Result<S::Ok, S::Error> {
        t.map(Date::from).serialize(s)
    }

    /// Reads a Hessian date or `null`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<time::OffsetDateTime>, D::Error> {
        match Option::<Date>::deserialize(d)? {
            None => Ok(None),
            Some(date) => {
                date.to_offset_date_time().map(Some).ok_or_else(|| super::out_of_range(date, "time::OffsetDateTime"))
            }
        }
    }
}
