//! A delaying TCP proxy for latency and bandwidth emulation on loopback (`tc netem` is not
//! available on the project's kernels): every chunk of bytes read from one side is written to
//! the other side a fixed one-way delay after it was read, and, with a rate, no earlier than the
//! emulated link has finished sending it (a link busy with earlier bytes queues later ones, as a
//! serializing link does). Both directions are delayed alike, so a request/reply round trip gains
//! twice the delay plus both messages' transmission times.
//!
//! It runs on its own thread with a current-thread Tokio runtime. Tokio's timer has a resolution
//! of one millisecond, so once less than two milliseconds remain a wait is finished by
//! `std::thread::sleep` (microsecond resolution on Linux) on Tokio's blocking pool, which leaves
//! the proxy's thread free to read and stamp the next chunks meanwhile.

use std::net::SocketAddr;
use std::sync::Arc;
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

/// A running proxy; stops (and drops its connections) when dropped.
#[derive(Debug)]
pub struct DelayProxy {
    addr: SocketAddr,
    stop: Option<watch::Sender<bool>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl DelayProxy {
    /// Listens on an ephemeral loopback port and forwards every connection to `target` through
    /// `link`.
    pub fn start(target: SocketAddr, link: Link) -> std::io::Result<DelayProxy> {
        // Bound here (a std listener), registered with the proxy's runtime on its thread, so
        // that `start` may be called from inside another runtime.
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let (stop, mut stopped) = watch::channel(false);
        let thread = std::thread::Builder::new().name("delay-proxy".into()).spawn(move || {
            rt.block_on(async move {
                let Ok(listener) = TcpListener::from_std(std_listener) else { return };
                loop {
                    tokio::select! {
                        accepted = listener.accept() => {
                            let Ok((client, _)) = accepted else { continue };
                            tokio::spawn(forward(client, target, link));
                        }
                        _ = stopped.wait_for(|s| *s) => break,
                    }
                }
            });
        })?;
        Ok(DelayProxy { addr, stop: Some(stop), thread: Some(thread) })
    }

    /// The address clients connect to.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for DelayProxy {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(true);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn forward(client: TcpStream, target: SocketAddr, link: Link) {
    let Ok(server) = TcpStream::connect(target).await else { return };
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (cr, cw) = client.into_split();
    let (sr, sw) = server.into_split();
    let link = Arc::new(link);
    let up = tokio::spawn(pipe(cr, sw, link.clone()));
    let down = tokio::spawn(pipe(sr, cw, link));
    let _ = up.await;
    let _ = down.await;
}

/// Reads chunks from `from`, stamps each with its delivery time, and writes them to `to` at that
/// time; an end of stream is passed on (after the pending bytes) as a write shutdown.
async fn pipe(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, link: Arc<Link>) {
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
        let proxy = DelayProxy::start(echo, link).expect("proxy");
        let rtt = round_trip(proxy.local_addr(), 1000);
        assert!(rtt >= Duration::from_millis(6), "{rtt:?}");
        assert!(rtt < Duration::from_millis(100), "{rtt:?}");
    }

    #[test]
    fn a_rate_adds_the_transmission_time() {
        let echo = echo_server();
        // 100,000 bytes/s: 10,000 bytes take 100 ms each way
        let link = Link { one_way_delay: Duration::ZERO, bytes_per_second: Some(100_000) };
        let proxy = DelayProxy::start(echo, link).expect("proxy");
        let rtt = round_trip(proxy.local_addr(), 10_000);
        assert!(rtt >= Duration::from_millis(190), "{rtt:?}");
        assert!(rtt < Duration::from_millis(1000), "{rtt:?}");
    }
}
