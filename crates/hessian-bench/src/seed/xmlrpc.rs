//! The XML-RPC row of experiment 2: `dxr` values and messages (`MethodCall`, `MethodResponse`,
//! `FaultResponse`) over the suite's hyper HTTP/1.1 client and server (`peers`). XML-RPC has
//! no 64-bit integers (the `i8` extension, which `dxr` speaks, carries the W1/W2 ids), no 32-bit
//! floats (W1's `ratio` travels as a double and is narrowed back) and dates to the second (W1 and
//! W2 dates are whole seconds, so they survive; anything else is refused). Faults travel as
//! XML-RPC faults.

use crate::seed::peers::{self, HttpClient};
use dxr::{DateTime, Fault, FaultResponse, MethodCall, MethodResponse, TryFromValue, TryToValue, Value};
use hessian::serde::Date;
use hessian_testkit::structs::{self, w2, Item};
use std::borrow::Cow;
use tokio::net::TcpListener;

#[derive(TryToValue, TryFromValue)]
struct XItem {
    name: String,
    street: String,
    city: String,
    comment: String,
    created: DateTime,
    updated: DateTime,
    id: i64,
    count: i32,
    price: f64,
    ratio: f64,
}

#[derive(TryToValue, TryFromValue)]
struct XMoney {
    cents: i32,
    currency: String,
}

#[derive(TryToValue, TryFromValue)]
struct XAddress {
    street: String,
    city: String,
    zip: String,
    country: String,
}

#[derive(TryToValue, TryFromValue)]
struct XCustomer {
    id: i64,
    name: String,
    email: String,
    address: XAddress,
}

#[derive(TryToValue, TryFromValue)]
struct XProduct {
    sku: String,
    name: String,
    price: XMoney,
}

#[derive(TryToValue, TryFromValue)]
struct XLineItem {
    quantity: i32,
    product: XProduct,
    total: XMoney,
}

#[derive(TryToValue, TryFromValue)]
struct XOrder {
    id: i64,
    customer: XCustomer,
    lines: Vec<XLineItem>,
    total: XMoney,
    placed: DateTime,
}

/// Milliseconds since the epoch as an XML-RPC date (whole seconds only).
fn to_datetime(ms: i64) -> Result<DateTime, String> {
    if ms % 1000 != 0 {
        return Err(format!("XML-RPC dates have no milliseconds: {ms}"));
    }
    let secs = ms.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = super::stats::civil_from_days(days);
    format!("{y:04}{m:02}{d:02}T{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60)
        .parse::<DateTime>()
        .map_err(|e| e.to_string())
}

/// An XML-RPC date as milliseconds since the epoch (UTC).
fn from_datetime(t: &DateTime) -> i64 {
    let (y, m, d) = (i64::from(t.year()), i64::from(t.month()), i64::from(t.day()));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    ((days * 86_400) + i64::from(t.hour()) * 3600 + i64::from(t.minute()) * 60 + i64::from(t.second())) * 1000
}

fn item_to_x(i: Item) -> Result<XItem, String> {
    Ok(XItem {
        created: to_datetime(i.created.0)?,
        updated: to_datetime(i.updated.0)?,
        name: i.name,
        street: i.street,
        city: i.city,
        comment: i.comment,
        id: i.id,
        count: i.count,
        price: i.price,
        ratio: f64::from(i.ratio),
    })
}

fn item_from_x(i: XItem) -> Item {
    Item {
        created: Date(from_datetime(&i.created)),
        updated: Date(from_datetime(&i.updated)),
        name: i.name,
        street: i.street,
        city: i.city,
        comment: i.comment,
        id: i.id,
        count: i.count,
        price: i.price,
        ratio: i.ratio as f32,
    }
}

fn money_to_x(m: &w2::Money) -> XMoney {
    XMoney { cents: m.cents, currency: m.currency.clone() }
}

fn money_from_x(m: XMoney) -> w2::Money {
    w2::Money { cents: m.cents, currency: m.currency }
}

fn order_to_x(o: &w2::Order) -> Result<XOrder, String> {
    let a = &o.customer.address;
    Ok(XOrder {
        id: o.id,
        customer: XCustomer {
            id: o.customer.id,
            name: o.customer.name.clone(),
            email: o.customer.email.clone(),
            address: XAddress {
                street: a.street.clone(),
                city: a.city.clone(),
                zip: a.zip.clone(),
                country: a.country.clone(),
            },
        },
        lines: o
            .lines
            .iter()
            .map(|l| XLineItem {
                quantity: l.quantity,
                product: XProduct {
                    sku: l.product.sku.clone(),
                    name: l.product.name.clone(),
                    price: money_to_x(&l.product.price),
                },
                total: money_to_x(&l.total),
            })
            .collect(),
        total: money_to_x(&o.total),
        placed: to_datetime(o.placed.0)?,
    })
}

fn order_from_x(o: XOrder) -> w2::Order {
    let c = o.customer;
    let a = c.address;
    w2::Order {
        id: o.id,
        customer: w2::Customer {
            id: c.id,
            name: c.name,
            email: c.email,
            address: w2::Address { street: a.street, city: a.city, zip: a.zip, country: a.country },
        },
        lines: o
            .lines
            .into_iter()
            .map(|l| w2::LineItem {
                quantity: l.quantity,
                product: w2::Product { sku: l.product.sku, name: l.product.name, price: money_from_x(l.product.price) },
                total: money_from_x(l.total),
            })
            .collect(),
        total: money_from_x(o.total),
        placed: Date(from_datetime(&o.placed)),
    }
}

fn fault(code: i32, why: String) -> Vec<u8> {
    FaultResponse { fault: Fault::new(code, why) }.to_xml().map(String::into_bytes).unwrap_or_default()
}

fn respond(value: Result<Value, String>) -> Vec<u8> {
    match value.and_then(|value| MethodResponse { value }.to_xml().map_err(|e| e.to_string())) {
        Ok(xml) => xml.into_bytes(),
        Err(why) => fault(1, why),
    }
}

/// Answers one XML-RPC call of the W1/W2 service: a method response, or a fault.
fn answer(body: &[u8], request: &w2::Order, reply: &XOrder) -> Vec<u8> {
    let call = match std::str::from_utf8(body)
        .map_err(|e| e.to_string())
        .and_then(|t| MethodCall::from_xml(t).map_err(|e| e.to_string()))
    {
        Ok(c) => c,
        Err(why) => return fault(2, format!("not an XML-RPC call: {why}")),
    };
    let Some(arg) = call.params.first() else { return fault(3, format!("{}: no argument", call.name)) };
    match call.name.as_ref() {
        "getItems" => respond((|| {
            let n = i32::try_from_value(arg).map_err(|e| e.to_string())?;
            let n = usize::try_from(n).ok().filter(|n| *n <= 1_000_000).ok_or(format!("getItems: bad n {n}"))?;
            let items = structs::items(n).into_iter().map(item_to_x).collect::<Result<Vec<_>, _>>()?;
            items.try_to_value().map_err(|e| e.to_string())
        })()),
        "exchange" => respond((|| {
            let order = order_from_x(XOrder::try_from_value(arg).map_err(|e| e.to_string())?);
            if &order != request {
                return Err(format!("exchange: not the W2 request (order {})", order.id));
            }
            reply.try_to_value().map_err(|e| e.to_string())
        })()),
        other => fault(4, format!("no method {other}")),
    }
}

/// Serves the XML-RPC service on `listener` (any path) until the process ends.
pub async fn serve(listener: TcpListener) -> Result<(), String> {
    let request = w2::request();
    let reply = order_to_x(&w2::reply())?;
    let handler: peers::Handler =
        std::sync::Arc::new(move |_path: &str, body: &[u8]| Ok(answer(body, &request, &reply)));
    peers::serve_with(listener, "text/xml", handler).await;
    Ok(())
}

/// The XML-RPC call `exchange(order)` as the client sends it (for the shared-Product table).
pub fn exchange_call(order: &w2::Order) -> Result<Vec<u8>, String> {
    let arg = order_to_x(order)?.try_to_value().map_err(|e| e.to_string())?;
    let call = MethodCall { name: Cow::Borrowed("exchange"), params: vec![arg] };
    call.to_xml().map(String::into_bytes).map_err(|e| e.to_string())
}

/// One XML-RPC call: the decoded result value with the request and reply body sizes.
async fn call(client: &mut HttpClient, method: &str, arg: Value) -> Result<(Value, usize, usize), String> {
    let body = MethodCall { name: Cow::Borrowed(method), params: vec![arg] }.to_xml().map_err(|e| e.to_string())?;
    let req = body.len();
    let reply = client.post("/RPC2", body.into_bytes()).await?;
    let text = std::str::from_utf8(&reply).map_err(|e| e.to_string())?;
    match MethodResponse::from_xml(text) {
        Ok(r) => Ok((r.value, req, reply.len())),
        Err(e) => match FaultResponse::from_xml(text) {
            Ok(f) => Err(format!("{method}: fault {}: {}", f.fault.code(), f.fault.string())),
            Err(_) => Err(format!("{method}: not an XML-RPC response: {e}")),
        },
    }
}

/// One `getItems(n)`: the items with the request and reply body bytes.
pub async fn get_items(client: &mut HttpClient, n: usize) -> Result<(Vec<Item>, usize, usize), String> {
    let (v, q, r) = call(client, "getItems", Value::Integer(n as i32)).await?;
    let items = Vec::<XItem>::try_from_value(&v).map_err(|e| e.to_string())?;
    Ok((items.into_iter().map(item_from_x).collect(), q, r))
}

/// One `exchange(request)`: the reply with the request and reply body bytes.
pub async fn exchange(client: &mut HttpClient, request: &w2::Order) -> Result<(w2::Order, usize, usize), String> {
    let arg = order_to_x(request)?.try_to_value().map_err(|e| e.to_string())?;
    let (v, q, r) = call(client, "exchange", arg).await?;
    Ok((order_from_x(XOrder::try_from_value(&v).map_err(|e| e.to_string())?), q, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_at_second_resolution() {
        for ms in [0, 1_200_000_000_000, 1_200_000_060_000, 951_782_400_000, -86_400_000] {
            assert_eq!(from_datetime(&to_datetime(ms).expect("whole seconds")), ms);
        }
        assert!(to_datetime(1).is_err());
    }
}
