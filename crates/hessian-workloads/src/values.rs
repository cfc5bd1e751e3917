//! The W1-W3 data sets of `docs/workloads.md` as [`Value`]s, with objects laid out exactly as
//! Java's `Hessian2Output` writes the matching classes of `interop/java/src`.
//!
//! Java's serializer writes primitive and `java.lang.*` fields before all others, so the wire order
//! can differ from the specification's listing: W1 `Item` is written as
//! `name, street, city, comment, id, count, price, ratio, created, updated`, and W2 `LineItem` as
//! `quantity, product, total`. A `float` field is written as a double.

use hessian::{ClassDef, Value};
use std::sync::Arc;

/// Remote type name of W1 items.
pub const ITEM_CLASS: &str = "org.example.remoting.Item";
/// Package of the W2 types.
pub const W2_PACKAGE: &str = "com.squarespace.hopper.types";

/// The W1 sizes: small lists then large lists.
pub const W1_SIZES: [usize; 9] = [1, 10, 50, 100, 250, 500, 1000, 2500, 5000];

/// `prefix + i as 10 digits`, padded with '.' to 40 characters.
pub fn padded(prefix: &str, i: usize) -> String {
    // Built in a byte buffer rather than with `format!`: the demo RPC service builds these
    // strings on every `getItems` call, and formatting machinery was most of its cost.
    let mut digits = [b'0'; 20];
    let mut x = i;
    let mut k = digits.len();
    while x > 0 {
        k -= 1;
        digits[k] = b'0' + (x % 10) as u8;
        x /= 10;
    }
    let digits = &digits[k.min(digits.len() - 10)..];
    let mut bytes = Vec::with_capacity(40.max(prefix.len() + digits.len()));
    bytes.extend_from_slice(prefix.as_bytes());
    bytes.extend_from_slice(digits);
    if bytes.len() < 40 {
        bytes.resize(40, b'.');
    }
    String::from_utf8(bytes).expect("a UTF-8 prefix followed by ASCII digits and dots")
}

/// The class definition of W1 items, in Java's wire order.
pub fn item_class() -> Arc<ClassDef> {
    ClassDef::new(
        ITEM_CLASS,
        ["name", "street", "city", "comment", "id", "count", "price", "ratio", "created", "updated"],
    )
}

/// W1 item number `i`, sharing `class`.
pub fn item(class: &Arc<ClassDef>, i: usize) -> Value {
    let created = 1_200_000_000_000i64 + i as i64 * 1000;
    let ratio = (i % 100) as f32 / 7.0f32;
    Value::object(
        class.clone(),
        vec![
            Value::String(padded("name-", i)),
            Value::String(padded("street-", i)),
            Value::String(padded("city-", i)),
            Value::String(padded("comment-", i)),
            Value::Long(10_000_000_000 + i as i64),
            Value::Int(i as i32),
            Value::Double(i as f64 * 1.25 + 0.1),
            Value::Double(f64::from(ratio)),
            Value::Date(created),
            Value::Date(created + 86_400_000),
        ],
    )
}

/// The reply of `getItems(n)`: an untyped list (Java's `ArrayList`) of `n` items.
pub fn items(n: usize) -> Value {
    let class = item_class();
    Value::list((0..n).map(|i| item(&class, i)).collect())
}

fn w2(name: &str, fields: &[&str]) -> Arc<ClassDef> {
    ClassDef::new(format!("{W2_PACKAGE}.{name}"), fields.iter().copied())
}

/// The six W2 class definitions, in Java's wire order.
pub struct W2Classes {
    /// `Money { cents, currency }`.
    pub money: Arc<ClassDef>,
    /// `Address { street, city, zip, country }`.
    pub address: Arc<ClassDef>,
    /// `Customer { id, name, email, address }`.
    pub customer: Arc<ClassDef>,
    /// `Product { sku, name, price }`.
    pub product: Arc<ClassDef>,
    /// `LineItem { quantity, product, total }` (Java writes the int first).
    pub line_item: Arc<ClassDef>,
    /// `Order { id, customer, lines, total, placed }`.
    pub order: Arc<ClassDef>,
}

impl Default for W2Classes {
    fn default() -> Self {
        W2Classes {
            money: w2("Money", &["cents", "currency"]),
            address: w2("Address", &["street", "city", "zip", "country"]),
            customer: w2("Customer", &["id", "name", "email", "address"]),
            product: w2("Product", &["sku", "name", "price"]),
            line_item: w2("LineItem", &["quantity", "product", "total"]),
            order: w2("Order", &["id", "customer", "lines", "total", "placed"]),
        }
    }
}

impl W2Classes {
    fn money(&self, cents: i32) -> Value {
        Value::object(self.money.clone(), vec![Value::Int(cents), Value::string("EUR")])
    }

    fn line(&self, k: i32) -> Value {
        let product = Value::object(
            self.product.clone(),
            vec![Value::String(format!("SKU-{k:04}")), Value::String(format!("Product {k}")), self.money(k * 1000)],
        );
        Value::object(self.line_item.clone(), vec![Value::Int(k), product, self.money(k * k * 1000)])
    }

    fn order(
        &self,
        id: i64,
        address: [&str; 4],
        lines: std::ops::RangeInclusive<i32>,
        total: i32,
        placed: i64,
    ) -> Value {
        let address = Value::object(self.address.clone(), address.iter().map(|s| Value::string(*s)).collect());
        let customer = Value::object(
            self.customer.clone(),
            vec![Value::Long(42), Value::string("Ada Lovelace"), Value::string("ada@example.org"), address],
        );
        let lines = Value::list(lines.map(|k| self.line(k)).collect());
        Value::object(
            self.order.clone(),
            vec![Value::Long(id), customer, lines, self.money(total), Value::Date(placed)],
        )
    }

    /// The specified request of `exchange(Order)`.
    pub fn request(&self) -> Value {
        self.order(1001, ["12 Analytical Row", "London", "N1 9GU", "GB"], 1..=3, 14000, 1_200_000_000_000)
    }

    /// The specified reply of `exchange(Order)`.
    pub fn reply(&self) -> Value {
        self.order(1002, ["1 Difference Engine Way", "Cambridge", "CB2 1TN", "GB"], 4..=5, 41000, 1_200_000_060_000)
    }
}

/// The W3 class definition (`Money { cents, text }`, remote name `Money`).
pub fn money_class() -> Arc<ClassDef> {
    ClassDef::new("Money", ["cents", "text"])
}

/// One W3 Money.
pub fn money(class: &Arc<ClassDef>, cents: i32) -> Value {
    Value::object(class.clone(), vec![Value::Int(cents), Value::String(format!("{cents} cents."))])
}

/// W3 list of `n` Money values, cents = i * 100.
pub fn moneys(n: usize) -> Value {
    let class = money_class();
    Value::list((0..n).map(|i| money(&class, i as i32 * 100)).collect())
}

#[cfg(test)]
mod tests {
    use super::padded;

    #[test]
    fn padded_matches_the_specification() {
        for i in [0usize, 7, 42, 4999, 1_000_000, 9_999_999_999, 12_345_678_901] {
            let mut expected = format!("name-{i:010}");
            while expected.len() < 40 {
                expected.push('.');
            }
            assert_eq!(padded("name-", i), expected);
        }
        assert_eq!(padded("comment-", 3), "comment-0000000003......................");
    }
}
