//! The server's type-map cache stays within its memory bound, counted in real heap bytes
//! (`docs/negotiation.md` 7): a counting allocator measures the heap the process holds before
//! and after thousands of plain calls that each teach the server a map never used again, and
//! the growth stays within 10 % of the configured `max_bytes` (while the cache did fill it).

use hessian::serde::message::CallWriter;
use hessian::{ClassDef, Format, Value};
use hessian_rpc::negotiation::TypeMapConfig;
use hessian_rpc::{HessianServer, Service};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting the bytes allocated and not yet freed (requested sizes).
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// A plain call of `take` whose one argument is an object of a class of its own: the map of
/// that one class.
fn junk_call(i: usize) -> Vec<u8> {
    let class = ClassDef::new(format!("junk.J{i}"), ["a", "bb"]);
    let arg = Value::object(class, vec![Value::Int(i as i32), Value::Null]);
    let mut w = CallWriter::new(Format::Hessian2, 2, "take", &[], 1).unwrap();
    w.arg(&arg).unwrap();
    w.finish().unwrap()
}

#[test]
fn the_map_cache_holds_no_more_heap_than_its_bound() {
    const BOUND: usize = 1 << 20;
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let service = Service::builder().sync_method("take", &["Object"], |_| Ok(Value::Null)).build();
    let mut config = TypeMapConfig::default();
    config.max_bytes = BOUND;
    config.max_maps = 1 << 20; // the byte bound is the one that binds
    let server = HessianServer::builder().fallback(service).type_maps(config).build();
    let running = rt.block_on(server.clone().bind("127.0.0.1:0")).unwrap();
    let addr = running.local_addr();
    let mut conn = std::net::TcpStream::connect(addr).unwrap();
    let mut post = |body: &[u8]| {
        let head =
            format!("POST / HTTP/1.1\r\nHost: x\r\nHessian-Type-Maps: 1\r\nContent-Length: {}\r\n\r\n", body.len());
        // one write: head and body in one segment (two would wait on Nagle and delayed ACKs)
        let mut request = head.into_bytes();
        request.extend_from_slice(body);
        conn.write_all(&request).unwrap();
        // the reply: a head with a Content-Length, then that many bytes
        let mut buf = Vec::new();
        let mut byte = [0u8; 1];
        while !buf.ends_with(b"\r\n\r\n") {
            conn.read_exact(&mut byte).unwrap();
            buf.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .expect("content-length");
        let mut body = vec![0u8; len];
        conn.read_exact(&mut body).unwrap();
    };
    // warm up the connection's buffers and the decoder's per-thread caches
    for i in 0..200 {
        post(&junk_call(1_000_000 + i % 4));
    }
    let calls: Vec<Vec<u8>> = (0..12_000).map(|i| junk_call(i).into_boxed_slice().into_vec()).collect();
    let own = calls.iter().map(Vec::capacity).sum::<usize>() + calls.capacity() * std::mem::size_of::<Vec<u8>>();
    // the heap without the calls this test holds (it frees them before the second count)
    let before = LIVE.load(Ordering::Relaxed) - own as isize;
    for (i, call) in calls.iter().enumerate() {
        post(call);
        if i % 1000 == 999 {
            let s = server.type_map_stats();
            assert!(s.bytes <= BOUND as u64, "{s:?}");
        }
    }
    drop(calls);
    let grown = LIVE.load(Ordering::Relaxed) - before;
    let s = server.type_map_stats();
    println!("heap grown by {grown} bytes for a bound of {BOUND}; {s:?}");
    assert!(s.evictions > 0 && s.maps > 500, "the cache filled and evicted: {s:?}");
    assert!(grown as f64 <= BOUND as f64 * 1.1, "heap grew by {grown} bytes, over the bound {BOUND} + 10 %: {s:?}");
    assert!(grown as f64 >= BOUND as f64 * 0.5, "the cache held its budget: grew by {grown} only: {s:?}");
    rt.block_on(running.shutdown());
}
