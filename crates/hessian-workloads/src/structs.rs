//! The W1-W3 data sets of `docs/workloads.md` as plain Rust structs with serde derives, mapped
//! to the Java classes of `interop/java/src` (remote names via `#[serde(rename)]`).
//!
//! Fields are declared in Java's wire order (Java's serializer writes primitive and
//! `java.lang.*` fields first), so that this crate's serde serializer writes exactly Java's bytes.

use hessian::serde::external::{Externalizable, FieldReader, FieldWriter};
use hessian::serde::Date;
use serde::{Deserialize, Serialize};

pub use crate::values::padded;

/// W1 item (`org.example.remoting.Item`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename = "org.example.remoting.Item")]
pub struct Item {
    /// `"name-"` + i, padded to 40 characters.
    pub name: String,
    /// `"street-"` + i, padded.
    pub street: String,
    /// `"city-"` + i, padded.
    pub city: String,
    /// `"comment-"` + i, padded.
    pub comment: String,
    /// `10000000000 + i`.
    pub id: i64,
    /// `i`.
    pub count: i32,
    /// `i * 1.25 + 0.1`.
    pub price: f64,
    /// `(i % 100) / 7.0` in 32 bits (Java `float`).
    pub ratio: f32,
    /// `1200000000000 + i * 1000`.
    pub created: Date,
    /// `created + 86400000`.
    pub updated: Date,
}

impl Item {
    /// Item number `i` of the workload.
    pub fn of(i: usize) -> Item {
        let created = 1_200_000_000_000i64 + i as i64 * 1000;
        Item {
            name: padded("name-", i),
            street: padded("street-", i),
            city: padded("city-", i),
            comment: padded("comment-", i),
            id: 10_000_000_000 + i as i64,
            count: i as i32,
            price: i as f64 * 1.25 + 0.1,
            ratio: (i % 100) as f32 / 7.0f32,
            created: Date(created),
            updated: Date(created + 86_400_000),
        }
    }
}

/// The reply of `getItems(n)`.
pub fn items(n: usize) -> Vec<Item> {
    (0..n).map(Item::of).collect()
}

/// The W2 graph (`com.squarespace.hopper.types`).
pub mod w2 {
    use hessian::serde::Date;
    use serde::{Deserialize, Serialize};

    /// `Money { cents, currency }`.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.Money")]
    pub struct Money {
        /// Amount in cents.
        pub cents: i32,
        /// ISO currency code.
        pub currency: String,
    }

    /// `Address { street, city, zip, country }`.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.Address")]
    pub struct Address {
        /// Street.
        pub street: String,
        /// City.
        pub city: String,
        /// Postal code.
        pub zip: String,
        /// Country code.
        pub country: String,
    }

    /// `Customer { id, name, email, address }`.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.Customer")]
    pub struct Customer {
        /// Customer id.
        pub id: i64,
        /// Name.
        pub name: String,
        /// E-mail.
        pub email: String,
        /// Address.
        pub address: Address,
    }

    /// `Product { sku, name, price }`.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.Product")]
    pub struct Product {
        /// Stock-keeping unit.
        pub sku: String,
        /// Name.
        pub name: String,
        /// Unit price.
        pub price: Money,
    }

    /// `LineItem { quantity, product, total }` (Java writes the int first).
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.LineItem")]
    pub struct LineItem {
        /// Quantity.
        pub quantity: i32,
        /// Product.
        pub product: Product,
        /// Line total.
        pub total: Money,
    }

    /// `Order { id, customer, lines, total, placed }`.
    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename = "com.squarespace.hopper.types.Order")]
    pub struct Order {
        /// Order id.
        pub id: i64,
        /// Customer.
        pub customer: Customer,
        /// Lines.
        pub lines: Vec<LineItem>,
        /// Order total.
        pub total: Money,
        /// When the order was placed.
        pub placed: Date,
    }

    fn eur(cents: i32) -> Money {
        Money { cents, currency: "EUR".into() }
    }

    fn line(k: i32) -> LineItem {
        LineItem {
            quantity: k,
            product: Product { sku: format!("SKU-{k:04}"), name: format!("Product {k}"), price: eur(k * 1000) },
            total: eur(k * k * 1000),
        }
    }

    fn order(id: i64, a: [&str; 4], lines: std::ops::RangeInclusive<i32>, total: i32, placed: i64) -> Order {
        Order {
            id,
            customer: Customer {
                id: 42,
                name: "Ada Lovelace".into(),
                email: "ada@example.org".into(),
                address: Address { street: a[0].into(), city: a[1].into(), zip: a[2].into(), country: a[3].into() },
            },
            lines: lines.map(line).collect(),
            total: eur(total),
            placed: Date(placed),
        }
    }

    /// The specified request of `exchange(Order)`.
    pub fn request() -> Order {
        order(1001, ["12 Analytical Row", "London", "N1 9GU", "GB"], 1..=3, 14000, 1_200_000_000_000)
    }

    /// The specified reply of `exchange(Order)`.
    pub fn reply() -> Order {
        order(1002, ["1 Difference Engine Way", "Cambridge", "CB2 1TN", "GB"], 4..=5, 41000, 1_200_000_060_000)
    }
}

/// W3 `Money { cents, text }` (remote name `Money`), derived codec: all fields.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(rename = "Money")]
pub struct Money {
    /// Amount in cents.
    pub cents: i32,
    /// `cents + " cents."`.
    pub text: String,
}

impl Money {
    /// The W3 value for `cents`.
    pub fn of(cents: i32) -> Money {
        Money { cents, text: format!("{cents} cents.") }
    }
}

/// W3 single instance (cents = 1000).
pub fn money() -> Money {
    Money::of(1000)
}

/// W3 list of `n` instances, cents = i * 100.
pub fn moneys(n: usize) -> Vec<Money> {
    (0..n).map(|i| Money::of(i as i32 * 100)).collect()
}

/// W3 Money with a hand-written codec: writes only `cents` (class `Money`, one field) and
/// rebuilds `text` on decode.
#[derive(Debug, Clone, PartialEq)]
pub struct MoneyCents {
    /// Amount in cents.
    pub cents: i32,
    /// `cents + " cents."` (not transmitted).
    pub text: String,
}

impl MoneyCents {
    /// The W3 value for `cents`.
    pub fn of(cents: i32) -> MoneyCents {
        MoneyCents { cents, text: format!("{cents} cents.") }
    }
}

impl Externalizable for MoneyCents {
    const CLASS: &'static str = "Money";
    const FIELDS: &'static [&'static str] = &["cents"];

    fn write_external<W: FieldWriter>(&self, out: &mut W) -> Result<(), W::Error> {
        out.write(&self.cents)
    }

    fn read_external<'de, R: FieldReader<'de>>(input: &mut R) -> Result<Self, R::Error> {
        let cents: i32 = input.read()?;
        Ok(MoneyCents::of(cents))
    }
}
hessian::externalizable!(MoneyCents);
