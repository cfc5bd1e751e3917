//! Referring messages of the type negotiation extension (`docs/negotiation.md`): a call or reply
//! that may refer to the W2 type map, read as the typed W2 `Order` and as a `Value`, and a
//! plain message's class definitions read for its map, with the server's default limits.
#![no_main]

use hessian::negotiate::{message_classes, TypeMap};
use hessian::serde::message::{reply_from_slice_negotiated, CallReader, CallWriter};
use hessian::{Format, Value};
use hessian_rpc::ServerConfig;
use hessian_testkit::structs::w2;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn w2_map() -> &'static Arc<TypeMap> {
    static MAP: OnceLock<Arc<TypeMap>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut w = CallWriter::new(Format::Hessian2, 2, "exchange", &[], 1).expect("call");
        w.arg(&w2::request()).expect("arg");
        let (_, classes) = w.finish_with_classes().expect("finish");
        Arc::new(TypeMap::new(classes).expect("map"))
    })
}

fuzz_target!(|data: &[u8]| {
    let limits = ServerConfig::default().limits;
    let lookup = |_: &hessian::negotiate::Digest| Some(w2_map().clone());
    if let Ok(mut r) = CallReader::negotiated(Format::Hessian2, data, limits, lookup) {
        let _ = r.arg::<w2::Order>().and_then(|_| r.finish());
    }
    if let Ok(mut r) = CallReader::negotiated(Format::Hessian2, data, limits, lookup) {
        while let Ok(false) = r.at_end() {
            if r.value_arg().is_err() {
                break;
            }
        }
    }
    let _ = reply_from_slice_negotiated::<w2::Order, _>(Format::Hessian2, data, limits, lookup);
    let _ = reply_from_slice_negotiated::<Value, _>(Format::Hessian2, data, limits, lookup);
    let _ = message_classes(data, limits);
});
