//! The RPC server's request parser: protocol detection and call decoding (Hessian 2, Hessian 1,
//! the `c 2 0` hybrid, Burlap) with the server's default limits, as `HessianServer` runs them
//! on every request body; and the client's reply decoding.
#![no_main]

use hessian::Format;
use hessian_rpc::protocol::{decode_call, decode_reply, Dialect};
use hessian_rpc::ServerConfig;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = ServerConfig::default().limits;
    if let Some(dialect) = Dialect::detect(data) {
        let _ = decode_call(dialect, data, limits);
    }
    for p in [Format::Hessian2, Format::Hessian1, Format::Burlap] {
        let _ = decode_reply(p, data, limits);
    }
});
