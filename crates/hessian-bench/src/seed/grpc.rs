//! The gRPC row of experiment 2: tonic (HTTP/2) and prost, with the messages and service of
//! `crates/hessian-bench/proto/seed_bench.proto` (generated code in [`grpc_gen`](super::grpc_gen),
//! checked in so that no build needs `protoc`). The server converts between the protobuf messages
//! and the W1/W2 structs as the other servers decode into and encode from them; the client decodes
//! every reply into the structs and checks it as for every protocol.

use super::grpc_gen as pb;
use hessian::serde::Date;
use hessian_testkit::structs::{self, w2, Item};
use pb::bench_client::BenchClient;
use pb::bench_server::{Bench, BenchServer};
use prost::Message;
use tokio::net::TcpListener;
use tonic::{Request, Response, Status};

fn item_to_pb(i: Item) -> pb::Item {
    pb::Item {
        name: i.name,
        street: i.street,
        city: i.city,
        comment: i.comment,
        created: i.created.0,
        updated: i.updated.0,
        id: i.id,
        count: i.count,
        price: i.price,
        ratio: i.ratio,
    }
}

fn item_from_pb(i: pb::Item) -> Item {
    Item {
        name: i.name,
        street: i.street,
        city: i.city,
        comment: i.comment,
        id: i.id,
        count: i.count,
        price: i.price,
        ratio: i.ratio,
        created: Date(i.created),
        updated: Date(i.updated),
    }
}

fn money_to_pb(m: &w2::Money) -> pb::Money {
    pb::Money { cents: m.cents, currency: m.currency.clone() }
}

fn money_from_pb(m: Option<pb::Money>) -> Result<w2::Money, String> {
    let m = m.ok_or("missing Money")?;
    Ok(w2::Money { cents: m.cents, currency: m.currency })
}

/// The W2 struct graph as protobuf messages.
pub fn order_to_pb(o: &w2::Order) -> pb::Order {
    let a = &o.customer.address;
    pb::Order {
        id: o.id,
        customer: Some(pb::Customer {
            id: o.customer.id,
            name: o.customer.name.clone(),
            email: o.customer.email.clone(),
            address: Some(pb::Address {
                street: a.street.clone(),
                city: a.city.clone(),
                zip: a.zip.clone(),
                country: a.country.clone(),
            }),
        }),
        lines: o
            .lines
            .iter()
            .map(|l| pb::LineItem {
                quantity: l.quantity,
                product: Some(pb::Product {
                    sku: l.product.sku.clone(),
                    name: l.product.name.clone(),
                    price: Some(money_to_pb(&l.product.price)),
                }),
                total: Some(money_to_pb(&l.total)),
            })
            .collect(),
        total: Some(money_to_pb(&o.total)),
        placed: o.placed.0,
    }
}

/// Protobuf messages back into the W2 struct graph (a missing message is an error).
pub fn order_from_pb(o: pb::Order) -> Result<w2::Order, String> {
    let c = o.customer.ok_or("missing Customer")?;
    let a = c.address.ok_or("missing Address")?;
    let lines = o
        .lines
        .into_iter()
        .map(|l| {
            let p = l.product.ok_or("missing Product")?;
            Ok(w2::LineItem {
                quantity: l.quantity,
                product: w2::Product { sku: p.sku, name: p.name, price: money_from_pb(p.price)? },
                total: money_from_pb(l.total)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(w2::Order {
        id: o.id,
        customer: w2::Customer {
            id: c.id,
            name: c.name,
            email: c.email,
            address: w2::Address { street: a.street, city: a.city, zip: a.zip, country: a.country },
        },
        lines,
        total: money_from_pb(o.total)?,
        placed: Date(o.placed),
    })
}

struct Impl {
    request: w2::Order,
    reply: pb::Order,
}

#[tonic::async_trait]
impl Bench for Impl {
    async fn get_items(&self, request: Request<pb::ItemsRequest>) -> Result<Response<pb::ItemList>, Status> {
        let n = request.into_inner().n;
        let n = usize::try_from(n)
            .ok()
            .filter(|n| *n <= 1_000_000)
            .ok_or_else(|| Status::invalid_argument(format!("getItems: n must be in 0..=1000000, got {n}")))?;
        Ok(Response::new(pb::ItemList { items: structs::items(n).into_iter().map(item_to_pb).collect() }))
    }

    async fn exchange(&self, request: Request<pb::Order>) -> Result<Response<pb::Order>, Status> {
        let order = order_from_pb(request.into_inner()).map_err(Status::invalid_argument)?;
        if order != self.request {
            return Err(Status::invalid_argument(format!("exchange: not the W2 request (order {})", order.id)));
        }
        Ok(Response::new(self.reply.clone()))
    }
}

/// Serves the gRPC service on `listener` until the process ends.
pub async fn serve(listener: TcpListener) -> Result<(), String> {
    let service = BenchServer::new(Impl { request: w2::request(), reply: order_to_pb(&w2::reply()) });
    // TCP_NODELAY on the accepted connections (Server::tcp_nodelay only applies to sockets the
    // server binds itself): without it, replies larger than one segment stall ~40 ms on delayed ACKs
    let incoming = tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
    tonic::transport::Server::builder()
        .add_service(service)
        .serve_with_incoming(incoming)
        .await
        .map_err(|e| e.to_string())
}

/// gRPC body bytes of a message: the protobuf encoding plus the 5-byte length-prefixed frame.
fn framed(m: &impl Message) -> f64 {
    (m.encoded_len() + 5) as f64
}

/// A gRPC client of the bench service.
pub type Client = BenchClient<tonic::transport::Channel>;

/// Connects to the gRPC server at `addr` (`127.0.0.1:PORT`), TCP_NODELAY.
pub async fn connect(addr: &str) -> Result<Client, String> {
    let endpoint =
        tonic::transport::Endpoint::from_shared(format!("http://{addr}")).map_err(|e| e.to_string())?.tcp_nodelay(true);
    let channel = endpoint.connect().await.map_err(|e| format!("connect: {e}"))?;
    Ok(BenchClient::new(channel))
}

/// One `getItems(n)`: the items with the request and reply body bytes.
pub async fn get_items(client: &mut Client, n: usize) -> Result<(Vec<Item>, f64, f64), String> {
    let req = pb::ItemsRequest { n: n as i32 };
    let q = framed(&req);
    let reply = client.get_items(req).await.map_err(|e| format!("getItems({n}): {e}"))?.into_inner();
    let r = framed(&reply);
    Ok((reply.items.into_iter().map(item_from_pb).collect(), q, r))
}

/// One `exchange(request)`: the reply with the request and reply body bytes.
pub async fn exchange(client: &mut Client, request: &w2::Order) -> Result<(w2::Order, f64, f64), String> {
    let req = order_to_pb(request);
    let q = framed(&req);
    let reply = client.exchange(req).await.map_err(|e| format!("exchange: {e}"))?.into_inner();
    let r = framed(&reply);
    Ok((order_from_pb(reply)?, q, r))
}
