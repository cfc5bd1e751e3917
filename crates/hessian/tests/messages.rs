//! The format-generic envelope API (`hessian::message`), one test per property run for each of
//! the three formats: calls, replies and faults round-trip; every reader keeps to the limits it
//! is given; bytes after a message are refused; and the generic functions write exactly what
//! each format's own functions write.

use hessian::message::{call_from_slice, call_to_vec, fault_to_vec, reply_from_slice, reply_to_vec};
use hessian::{burlap, h1, h2, Call, ErrorKind, Fault, Format, Limits, Value};

const FORMATS: [Format; 3] = [Format::Hessian2, Format::Hessian1, Format::Burlap];

fn args() -> Vec<Value> {
    vec![Value::Int(-7), Value::string("zwölf"), Value::Bool(true), Value::Null, Value::Long(1 << 40)]
}

#[test]
fn calls_round_trip_in_every_format() {
    for format in FORMATS {
        let call = Call::new("exchange", args());
        let bytes = call_to_vec(format, &call).unwrap();
        assert_eq!(hessian::detect::detect(&bytes), Some(format), "{format}");
        assert_eq!(call_from_slice(format, &bytes, Limits::default()).unwrap(), call, "{format}");
    }
}

#[test]
fn replies_and_faults_round_trip_in_every_format() {
    for format in FORMATS {
        let ok = Ok(Value::list(args()));
        let bytes = reply_to_vec(format, &ok).unwrap();
        let back = reply_from_slice(format, &bytes, Limits::default()).unwrap();
        let Ok(Value::List(list)) = back else { panic!("{format}: {back:?}") };
        assert_eq!(list.items, args(), "{format}");
        let fault = Fault::new("ServiceException", "no such order");
        let bytes = fault_to_vec(format, &fault).unwrap();
        assert_eq!(bytes, reply_to_vec(format, &Err(fault.clone())).unwrap(), "{format}");
        assert_eq!(reply_from_slice(format, &bytes, Limits::default()).unwrap(), Err(fault), "{format}");
    }
}

#[test]
fn every_reader_keeps_to_its_limits() {
    for format in FORMATS {
        let call = call_to_vec(format, &Call::new("m", vec![Value::string("x".repeat(100))])).unwrap();
        let reply = reply_to_vec(format, &Ok(Value::string("x".repeat(100)))).unwrap();
        let small = Limits::default().with_max_message_size(50);
        for e in
            [call_from_slice(format, &call, small).unwrap_err(), reply_from_slice(format, &reply, small).unwrap_err()]
        {
            assert!(matches!(e.kind(), ErrorKind::LimitExceeded { what: "message size", .. }), "{format}: {e}");
        }
        let short = Limits::default().with_max_string_len(10);
        assert!(call_from_slice(format, &call, short).is_err(), "{format}: string limit on a call");
        assert!(reply_from_slice(format, &reply, short).is_err(), "{format}: string limit on a reply");
    }
}

#[test]
fn bytes_after_a_message_are_refused_in_every_format() {
    for format in FORMATS {
        let mut call = call_to_vec(format, &Call::new("m", args())).unwrap();
        let mut reply = reply_to_vec(format, &Ok(Value::Int(1))).unwrap();
        let junk: &[u8] = if format == Format::Burlap { b"<int>1</int>" } else { b"I" };
        call.extend_from_slice(junk);
        reply.extend_from_slice(junk);
        assert!(call_from_slice(format, &call, Limits::default()).is_err(), "{format}: call");
        assert!(reply_from_slice(format, &reply, Limits::default()).is_err(), "{format}: reply");
    }
}

#[test]
fn the_generic_functions_write_what_each_format_writes() {
    let call = Call::new("m", args());
    let reply = Ok(Value::Double(2.5));
    let fault = Fault::new("E", "m");
    let own = |format| match format {
        Format::Hessian2 => (h2::call_to_vec(&call), h2::reply_to_vec(&reply), h2::fault_to_vec(&fault)),
        Format::Hessian1 => (h1::call_to_vec(&call), h1::reply_to_vec(&reply), h1::fault_to_vec(&fault)),
        Format::Burlap => (burlap::call_to_vec(&call), burlap::reply_to_vec(&reply), burlap::fault_to_vec(&fault)),
    };
    for format in FORMATS {
        let (c, r, f) = own(format);
        assert_eq!(call_to_vec(format, &call).unwrap(), c.unwrap(), "{format}");
        assert_eq!(reply_to_vec(format, &reply).unwrap(), r.unwrap(), "{format}");
        assert_eq!(fault_to_vec(format, &fault).unwrap(), f.unwrap(), "{format}");
    }
    // the hybrid call: a Hessian 1 body under a version-2 header, whose major the reader returns
    let hybrid = h1::call_to_vec_versioned(&call, 2).unwrap();
    assert_eq!(&hybrid[..3], b"c\x02\x00");
    assert_eq!(h1::call_from_slice(&hybrid, Limits::default()).unwrap(), (call, 2));
}
