//! The hand-written codec path (Java's `Externalizable`): W3 `Money` writes only its cents and
//! rebuilds its text on decode, inside a message that also holds derived types.
//!
//! Run: `cargo run -p hessian-codec --example externalizable_money`.

use hessian::serde::external::{Externalizable, FieldReader, FieldWriter};
use hessian::serde::{from_slice, to_vec, Date};
use serde::{Deserialize, Serialize};

/// A hot type with a hand-written codec: only `cents` travels (class `Money`, one field).
#[derive(Debug, Clone, PartialEq)]
struct Money {
    cents: i32,
    text: String,
}

impl Money {
    fn of(cents: i32) -> Money {
        Money { cents, text: format!("{cents} cents.") }
    }
}

impl Externalizable for Money {
    const CLASS: &'static str = "Money";
    const FIELDS: &'static [&'static str] = &["cents"];

    fn write_external<W: FieldWriter>(&self, out: &mut W) -> Result<(), W::Error> {
        out.write(&self.cents)
    }

    fn read_external<'de, R: FieldReader<'de>>(input: &mut R) -> Result<Self, R::Error> {
        let cents: i32 = input.read()?;
        Ok(Money::of(cents))
    }
}
hessian::externalizable!(Money);

/// The same type with the derived codec (all fields), for comparison.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename = "Money")]
struct DerivedMoney {
    cents: i32,
    text: String,
}

/// A derived type holding hand-written values: both kinds mix in one message.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(rename = "com.example.Ledger")]
struct Ledger {
    owner: String,
    opened: Date,
    entries: Vec<Money>,
}

fn main() -> Result<(), hessian::Error> {
    let ledger = Ledger {
        owner: "Ada".into(),
        opened: Date(1_200_000_000_000),
        entries: (0..5).map(|i| Money::of(i * 100)).collect(),
    };
    let bytes = to_vec(&ledger)?;
    println!("ledger with 5 hand-written Money: {} bytes", bytes.len());
    println!("as Java sees it: {}", hessian::h2::from_slice(&bytes)?);
    let back: Ledger = from_slice(&bytes)?;
    assert_eq!(back, ledger);

    let hand: Vec<Money> = (0..10_000).map(|i| Money::of(i * 100)).collect();
    let derived: Vec<DerivedMoney> =
        hand.iter().map(|m| DerivedMoney { cents: m.cents, text: m.text.clone() }).collect();
    let flat: Vec<i32> = hand.iter().map(|m| m.cents).collect();
    println!(
        "10,000 Money: derived {} bytes, hand-written {} bytes, flat ints {} bytes",
        to_vec(&derived)?.len(),
        to_vec(&hand)?.len(),
        to_vec(&flat)?.len()
    );

    // A hand-written reader reads what a derived writer wrote (it skips `text`), and the other way
    // round the derived reader gets the cents and a missing-field error for `text`.
    let from_derived: Vec<Money> = from_slice(&to_vec(&derived)?)?;
    assert_eq!(from_derived, hand);
    let err = from_slice::<Vec<DerivedMoney>>(&to_vec(&hand)?).unwrap_err();
    println!("derived reader on hand-written bytes: {err}");
    Ok(())
}
