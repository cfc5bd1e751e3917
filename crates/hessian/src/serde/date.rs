//! Dates. serde's data model has no date type, so [`Date`] is a newtype struct with a private
//! name that this crate's serializer writes as a Hessian date (Java's `java.util.Date`) and
//! that other serde formats see as a plain `i64` of milliseconds.
//!
//! For `std::time::SystemTime` fields use `#[serde(with = "hessian::serde::date::system_time")]`
//! (or [`option_system_time`] for `Option<SystemTime>`).

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
