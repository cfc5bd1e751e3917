//! A TCP relay on loopback that counts, and optionally records and delays, the bytes crossing it.
//!
//! Counting: every chunk read from the client is added to the client → server count, every chunk
//! read from the server to the server → client count, before it is forwarded, so once a client
//! has its reply both counts include the whole exchange. [`Relay::reset`] zeroes them (between a
//! warm-up and a batch of calls), [`Relay::counts`] reads them; [`Relay::record`] also keeps a
//! copy of each connection's bytes in each direction ([`Relay::taps`]), from which the seed suite
//! reads the HTTP bodies of any client, Java's included.
//!
//! Delaying, for latency and bandwidth emulation (`tc netem` is not available on the project's
//! kernels): every chunk of bytes read from one side is written to the other side a fixed one-way
//! delay after it was read, and, with a rate, no earlier than the emulated link has finished
//! sending it (a link busy with earlier bytes queues later ones, as a serializing link does). Both
//! directions are delayed alike, so a request/reply round trip gains twice the delay plus both
//! messages' transmission times. [`Link::NONE`] forwards at once.
//!
//! It runs on its own thread with a current-thread Tokio runtime. Tokio's timer has a resolution
//! of one millisecond, so once less than two milliseconds remain a wait is finished by
//! `std::thread::sleep` (microsecond resolution on Linux) on Tokio's blocking pool, which leaves
//! the relay's thread free to read and stamp the next chunks meanwhile.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};

/// What the emulated link does to the bytes crossing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Added to every chunk, in each direction.
    pub one_way_delay: Duration,
    /// The link's rate in bytes per second, in each direction (`None`: unlimited).
    pub bytes_per_second: Option<u64>,
}

impl Link {
    /// No delay and no rate: bytes are forwarded as soon as they are read.
    pub const NONE: Link = Link { one_way_delay: Duration::ZERO, bytes_per_second: None };
}

/// Bytes that crossed the relay since it started or was last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Client → server.
    pub up: u64,
    /// Server → client.
    pub down: u64,
}

/// The bytes one connection carried while the relay was recording, per direction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tap {
    /// Client → server, in order.
    pub up: Vec<u8>,
    /// Server → client, in order.
    pub down: Vec<u8>,
}

/// The counters and recordings the relay's connections share with its owner.
#[derive(Debug, Default)]
struct Meter {
    up: AtomicU64,
    down: AtomicU64,
    recording: AtomicBool,
    /// One recording per connection, in the order they were accepted.
    taps: Mutex<Vec<Arc<Mutex<Tap>>>>,
}

impl Meter {
    fn add(&self, tap: &Mutex<Tap>, upward: bool, bytes: &[u8]) {
        let n = bytes.len() as u64;
        if upward {
            self.up.fetch_add(n, Ordering::SeqCst);
        } else {
            self.down.fetch_add(n, Ordering::SeqCst);
        }
        if self.recording.load(Ordering::SeqCst) {
            if let Ok(mut t) = tap.lock() {
                if upward {
                    t.up.extend_from_slice(bytes);
                } else {
                    t.down.extend_from_slice(bytes);
                }
            }
        }
    }
}

/// A running relay; stops (and drops its connections) when dropped.
#[derive(Debug)]
pub struct Relay {
    addr: SocketAddr,
    meter: Arc<Meter>,
    stop: Option<watch::Sender<bool>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Relay {
    /// A relay to `target` that forwards at once ([`Link::NONE`]) and counts.
    pub fn counting(target: SocketAddr) -> std::io::Result<Relay> {
        Relay::start(target, Link::NONE)
    }

    /// Listens on an ephemeral loopback port and forwards every connection to `target` through
    /// `link`, counting the bytes.
    pub fn start(target: SocketAddr, link: Link) -> std::io::Result<Relay> {
        // Bound here (a std listener), registered with the proxy's runtime on its thread, so
        // that `start` may be called from inside another runtime.
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let (stop, mut stopped) = watch::channel(false);
        let meter = Arc::new(Meter::default());
        let shared = meter.clone();
        let thread = std::thread::Builder::new().name("relay".into()).spawn(move || {
            rt.block_on(async move {
                let Ok(listener) = TcpListener::from_std(std_listener) else { return };
                loop {
                    tokio::select! {
                        accepted = listener.accept() => {
                            let Ok((client, _)) = accepted else { continue };
                            tokio::spawn(forward(client, target, link, shared.clone()));
                        }
                        _ = stopped.wait_for(|s| *s) => break,
                    }
                }
            });
        })?;
        Ok(Relay { addr, meter, stop: Some(stop), thread: Some(thread) })
    }

    /// The address clients connect to.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bytes counted since the start or the last [`Relay::reset`].
    pub fn counts(&self) -> Counts {
        Counts { up: self.meter.up.load(Ordering::SeqCst), down: self.meter.down.load(Ordering::SeqCst) }
    }

    /// Zeroes the counts and empties the recordings (the connections stay open).
    pub fn reset(&self) {
        self.meter.up.store(0, Ordering::SeqCst);
        self.meter.down.store(0, Ordering::SeqCst);
        if let Ok(taps) = self.meter.taps.lock() {
            for t in taps.iter() {
                if let Ok(mut t) = t.lock() {
                    *t = Tap::default();
                }
            }
        }
    }

    /// Starts (`true`) or stops keeping a copy of the bytes of every connection.
    pub fn record(&self, on: bool) {
        self.meter.recording.store(on, Ordering::SeqCst);
    }

    /// The recordings since the last reset, one per connection that carried bytes meanwhile.
    pub fn taps(&self) -> Vec<Tap> {
        let Ok(taps) = self.meter.taps.lock() else { return Vec::new() };
        taps.iter()
            .filter_map(|t| t.lock().ok().map(|t| t.clone()))
            .filter(|t| !t.up.is_empty() || !t.down.is_empty())
            .collect()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn forward(client: TcpStream, target: SocketAddr, link: Link, meter: Arc<Meter>) {
    let Ok(server) = TcpStream::connect(target).await else { return };
    let tap = Arc::new(Mutex::new(Tap::default()));
    if let Ok(mut taps) = meter.taps.lock() {
        taps.push(tap.clone());
    }
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (cr, cw) = client.into_split();
    let (sr, sw) = server.into_split();
    let link = Arc::new(link);
    let up = tokio::spawn(pipe(cr, sw, link.clone(), Side { meter: meter.clone(), tap: tap.clone(), upward: true }));
    let down = tokio::spawn(pipe(sr, cw, link, Side { meter, tap, upward: false }));
    let _ = up.await;
    let _ = down.await;
}

/// Where a pipe counts and records what it reads.
struct Side {
    meter: Arc<Meter>,
    tap: Arc<Mutex<Tap>>,
    upward: bool,
}

/// Reads chunks from `from`, counts (and records) them, stamps each with its delivery time, and
/// writes them to `to` at that time; an end of stream is passed on (after the pending bytes) as a
/// write shutdown.
async fn pipe(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, link: Arc<Link>, side: Side) {
    let (tx, mut rx) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let writer = tokio::spawn(async move {
        while let Some((at, chunk)) = rx.recv().await {
            wait_until(at).await;
            if to.write_all(&chunk).await.is_err() {
                return;
            }
        }
        let _ = to.shutdown().await;
    });
    let mut busy_until = Instant::now();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        side.meter.add(&side.tap, side.upward, &buf[..n]);
        let now = Instant::now();
        let sent = match link.bytes_per_second {
            Some(rate) if rate > 0 => {
                let transmit = Duration::from_secs_f64(n as f64 / rate as f64);
                busy_until = busy_until.max(now) + transmit;
                busy_until
            }
            _ => now,
        };
        if tx.send((sent + link.one_way_delay, buf[..n].to_vec())).is_err() {
            break;
        }
    }
    drop(tx);
    let _ = writer.await;
}

/// Waits until `at`: Tokio's timer while more than 2 ms remain, then a thread sleep on the
/// blocking pool for the rest (finer than the timer's millisecond).
async fn wait_until(at: Instant) {
    let coarse = Duration::from_millis(2);
    let now = Instant::now();
    if at > now + coarse {
        tokio::time::sleep_until((at - coarse).into()).await;
    }
    let now = Instant::now();
    if at > now {
        let rest = at - now;
        if tokio::task::spawn_blocking(move || std::thread::sleep(rest)).await.is_err() {
            // the blocking pool is gone (the runtime is shutting down): wait with the timer
            tokio::time::sleep_until(at.into()).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// An echo server on a thread: answers every chunk it reads with the same bytes.
    fn echo_server() -> SocketAddr {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = l.local_addr().expect("addr");
        std::thread::spawn(move || {
            for s in l.incoming().flatten() {
                std::thread::spawn(move || {
                    let mut s = s;
                    let _ = s.set_nodelay(true);
                    let mut b = [0u8; 4096];
                    while let Ok(n) = s.read(&mut b) {
                        if n == 0 || s.write_all(&b[..n]).is_err() {
                            break;
                        }
                    }
                });
            }
        });
        addr
    }

    fn round_trip(addr: SocketAddr, bytes: usize) -> Duration {
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        s.set_nodelay(true).expect("nodelay");
        let msg = vec![7u8; bytes];
        let mut back = vec![0u8; bytes];
        // one round trip to open the path, then the timed one
        s.write_all(&msg).expect("write");
        s.read_exact(&mut back).expect("read");
        let t0 = Instant::now();
        s.write_all(&msg).expect("write");
        s.read_exact(&mut back).expect("read");
        assert_eq!(back, msg);
        t0.elapsed()
    }

    #[test]
    fn adds_the_delay_in_both_directions_and_forwards_every_byte() {
        let echo = echo_server();
        let link = Link { one_way_delay: Duration::from_millis(3), bytes_per_second: None };
        let proxy = Relay::start(echo, link).expect("proxy");
        let rtt = round_trip(proxy.local_addr(), 1000);
        assert!(rtt >= Duration::from_millis(6), "{rtt:?}");
        assert!(rtt < Duration::from_millis(100), "{rtt:?}");
    }

    #[test]
    fn a_rate_adds_the_transmission_time() {
        let echo = echo_server();
        // 100,000 bytes/s: 10,000 bytes take 100 ms each way
        let link = Link { one_way_delay: Duration::ZERO, bytes_per_second: Some(100_000) };
        let proxy = Relay::start(echo, link).expect("proxy");
        let rtt = round_trip(proxy.local_addr(), 10_000);
        assert!(rtt >= Duration::from_millis(190), "{rtt:?}");
        assert!(rtt < Duration::from_millis(1000), "{rtt:?}");
    }

    #[test]
    fn counts_and_records_the_exact_bytes_of_each_direction() {
        let echo = echo_server();
        let relay = Relay::counting(echo).expect("relay");
        let mut s = std::net::TcpStream::connect(relay.local_addr()).expect("connect");
        let mut back = [0u8; 1000];
        s.write_all(&[1u8; 1000]).expect("write");
        s.read_exact(&mut back).expect("read");
        // the reply is in: both directions are counted already (bytes are counted before they
        // are forwarded)
        assert_eq!(relay.counts(), Counts { up: 1000, down: 1000 });
        assert!(relay.taps().is_empty(), "nothing is recorded unless asked");

        relay.reset();
        relay.record(true);
        assert_eq!(relay.counts(), Counts::default());
        s.write_all(b"GET").expect("write");
        s.read_exact(&mut back[..3]).expect("read");
        // a second connection is recorded apart from the first
        let mut t = std::net::TcpStream::connect(relay.local_addr()).expect("connect");
        t.write_all(b"hello").expect("write");
        t.read_exact(&mut back[..5]).expect("read");
        assert_eq!(relay.counts(), Counts { up: 8, down: 8 });
        let taps = relay.taps();
        assert_eq!(
            taps,
            [
                Tap { up: b"GET".to_vec(), down: b"GET".to_vec() },
                Tap { up: b"hello".to_vec(), down: b"hello".to_vec() }
            ]
        );

        // an exchange whose reply differs from its request: 4 bytes up, 9 down
        let server = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let target = server.local_addr().expect("addr");
        std::thread::spawn(move || {
            if let Ok((mut c, _)) = server.accept() {
                let mut q = [0u8; 4];
                if c.read_exact(&mut q).is_ok() {
                    let _ = c.write_all(b"answered!");
                }
            }
        });
        let relay = Relay::counting(target).expect("relay");
        relay.record(true);
        let mut c = std::net::TcpStream::connect(relay.local_addr()).expect("connect");
        c.write_all(b"ping").expect("write");
        let mut a = Vec::new();
        c.read_to_end(&mut a).expect("read");
        assert_eq!(a, b"answered!");
        assert_eq!(relay.counts(), Counts { up: 4, down: 9 });
        assert_eq!(relay.taps(), [Tap { up: b"ping".to_vec(), down: b"answered!".to_vec() }]);
    }
}
