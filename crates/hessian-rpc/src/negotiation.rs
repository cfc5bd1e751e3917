//! Type negotiation ("Hessian 2.1", `docs/negotiation.md`) in the RPC layer: the HTTP headers,
//! the server's bounded cache of type maps, and the client's per-endpoint state.
//!
//! It is on by default on both sides and only ever used in the Hessian 2 dialect:
//!
//! - the client offers `Hessian-Type-Maps: 1` on every call; once an endpoint answered the
//!   offer and confirmed a method's map (`Hessian-Type-Map`), later calls of that method refer
//!   to it (`H 02 01 T 30 <digest> C …`) instead of carrying its class definitions, and the
//!   client asks for referring replies with `Hessian-Reply-Map`. A server that does not know
//!   the map answers `UnknownTypeMap` before it decodes or runs anything, and the client resends
//!   the call once, plain. Against a plain server (Caucho's `HessianServlet`, python-hessian)
//!   the client keeps sending plain Hessian 2, the only cost being one request header;
//! - the server learns the map of every plain call that offered the extension and of every
//!   plain reply it writes to one, keeps them in one cache bounded by count and bytes (least
//!   recently used evicted, [`TypeMapConfig`]), and decodes referring calls with the map's
//!   classes pre-defined; the same decoding limits apply to both.
//!
//! No session, sticky routing or ordering is assumed: a map a server lost costs one resend,
//! never an error, and a call runs exactly once.

use hessian::negotiate::{Digest, MapLimits, TypeMap};
use hessian::ClassDef;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `Hessian-Type-Maps`: the versions of the extension a peer speaks (offer and answer).
pub const OFFER_HEADER: &str = "hessian-type-maps";
/// `Hessian-Type-Map`: the maps a server keeps from this exchange (request map, reply map).
pub const TYPE_MAP_HEADER: &str = "hessian-type-map";
/// `Hessian-Reply-Map`: a map of the server's reply classes that the client knows.
pub const REPLY_MAP_HEADER: &str = "hessian-reply-map";
/// `Hessian-Type-Map-Unknown`: the referenced map is not known here, resend the call plain.
pub const UNKNOWN_HEADER: &str = "hessian-type-map-unknown";
/// The version of the extension implemented here.
pub const VERSION: &str = "1";
/// The fault code of the "unknown type map, resend" answer.
pub const UNKNOWN_TYPE_MAP: &str = "UnknownTypeMap";

/// The refusal of a referring call whose map is not known here (`docs/negotiation.md` 6.1):
/// the fault `UnknownTypeMap` naming the digest, whose content proves that nothing ran.
pub(crate) fn refusal(d: &Digest) -> hessian::Fault {
    let hex = hessian::negotiate::to_hex(d);
    hessian::Fault::new(UNKNOWN_TYPE_MAP, format!("unknown type map {hex}: resend the call as plain Hessian 2"))
}

/// Whether a fault is the refusal of a referring call to the map `hex` (`docs/negotiation.md`
/// 6.2): its code is `UnknownTypeMap` and its message names that digest. A refusal naming
/// another digest proves nothing about this call.
pub(crate) fn is_refusal(fault: &hessian::Fault, hex: &str) -> bool {
    fault.code == UNKNOWN_TYPE_MAP && fault.message.contains(hex)
}

/// Whether an HTTP error body is Caucho's refusal of a referring call: its skeleton reads
/// `H 02` as Hessian 2 and then throws `expected hessian call ('C') at 0x54` at the `T`, before
/// it reads the method (`docs/negotiation.md` 6.2; the quotes may be HTML-escaped).
pub(crate) fn is_caucho_refusal(body: &[u8]) -> bool {
    const START: &[u8] = b"expected hessian call (";
    const END: &[u8] = b") at 0x54";
    body.windows(START.len()).position(|w| w == START).is_some_and(|at| {
        let rest = &body[at + START.len()..];
        // `'C'`, `&#39;C&#39;` or `&apos;C&apos;`, then the offending code
        rest.len() >= END.len() && rest[..rest.len().min(32)].windows(END.len()).any(|w| w == END)
    })
}

/// Adds one to a counter.
pub(crate) fn count(c: &AtomicU64) {
    c.fetch_add(1, Ordering::Relaxed);
}

/// Whether a `Hessian-Type-Maps` value lists version 1.
pub(crate) fn offers(value: &[u8]) -> bool {
    value.split(|&b| b == b',').any(|v| v.trim_ascii() == VERSION.as_bytes())
}

/// The digests of a `Hessian-Type-Map` value (malformed entries left out).
pub(crate) fn digests(value: &str) -> impl Iterator<Item = Digest> + '_ {
    value.split(',').filter_map(hessian::negotiate::parse_digest)
}

/// The server's type-map settings (`docs/negotiation.md` section 7; `SECURITY.md`). More may
/// come: start from `TypeMapConfig::default()` and set fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TypeMapConfig {
    /// Whether the server speaks the extension at all (when off, it answers every call as a
    /// plain Hessian 2 server does, and a referring call gets a protocol fault).
    pub enabled: bool,
    /// Most maps kept (request and reply maps in one cache); least recently used evicted.
    pub max_maps: usize,
    /// Most bytes of canonical encodings kept; least recently used evicted.
    pub max_bytes: usize,
    /// Bounds on one map: a plain call or reply whose classes exceed them is served, and its
    /// map not kept.
    pub map_limits: MapLimits,
}

impl Default for TypeMapConfig {
    fn default() -> Self {
        TypeMapConfig { enabled: true, max_maps: 1024, max_bytes: 4 * 1024 * 1024, map_limits: MapLimits::default() }
    }
}

/// What a server's type-map cache holds and has done ([`HessianServer::type_map_stats`]).
///
/// [`HessianServer::type_map_stats`]: crate::HessianServer::type_map_stats
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerStats {
    /// Maps kept now.
    pub maps: u64,
    /// Bytes of canonical encodings kept now.
    pub bytes: u64,
    /// Maps learned (kept) from plain calls and plain replies.
    pub learned: u64,
    /// Maps evicted to stay within the limits.
    pub evictions: u64,
    /// Referring calls answered `UnknownTypeMap` (nothing run).
    pub unknown_type_map: u64,
    /// Referring calls decoded with a known map.
    pub referring_calls: u64,
    /// Plain Hessian 2 calls that offered the extension.
    pub plain_calls: u64,
    /// Replies written as referring replies.
    pub referring_replies: u64,
}

/// A cheap keyed hash for the maps of this module: their keys are digests (SHA-256 output, or
/// what a client sends, which is only looked up) and the method names of the client's own
/// calls, so SipHash's protection costs more than it buys. The key is random per map, so that
/// which keys collide cannot be predicted.
#[derive(Clone)]
pub(crate) struct KeyedHash(u64);

impl Default for KeyedHash {
    fn default() -> Self {
        use std::hash::BuildHasher as _;
        KeyedHash(std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64) | 1)
    }
}

impl std::hash::BuildHasher for KeyedHash {
    type Hasher = KeyedHasher;
    fn build_hasher(&self) -> KeyedHasher {
        KeyedHasher(self.0)
    }
}

/// The hasher of [`KeyedHash`]: a multiply-rotate over 8-byte words.
pub(crate) struct KeyedHasher(u64);

impl KeyedHasher {
    #[inline]
    fn mix(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(26);
    }
}

impl std::hash::Hasher for KeyedHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.mix(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(w) ^ (rest.len() as u64) << 59);
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0;
        (h ^ h >> 32).wrapping_mul(0xd6e8_feb8_6659_fd93) ^ h >> 29
    }
}

struct Entry {
    map: Arc<TypeMap>,
    /// A map of this server's own plain replies: the only kind it refers to in replies.
    own_reply: bool,
    tick: u64,
}

#[derive(Default)]
struct CacheState {
    entries: HashMap<Digest, Entry, KeyedHash>,
    tick: u64,
    bytes: usize,
}

impl CacheState {
    /// The entry of `d`, marked as the most recently used.
    fn touch(&mut self, d: &Digest) -> Option<&Entry> {
        self.tick += 1;
        let tick = self.tick;
        let e = self.entries.get_mut(d)?;
        e.tick = tick;
        Some(e)
    }

    /// Removes the least recently used entry. A scan of the entries: eviction happens only when
    /// a new map is learned into a full cache (at most `max_maps` entries), while every call that
    /// uses a map only updates its tick.
    fn evict_oldest(&mut self) -> Option<Entry> {
        let oldest = self.entries.iter().min_by_key(|(_, e)| e.tick).map(|(d, _)| *d)?;
        let e = self.entries.remove(&oldest)?;
        self.bytes -= e.map.canonical().len();
        Some(e)
    }
}

/// The server's maps: content-addressed, bounded by count and bytes, least recently used
/// evicted.
pub(crate) struct MapCache {
    config: TypeMapConfig,
    state: Mutex<CacheState>,
    learned: AtomicU64,
    evictions: AtomicU64,
    pub(crate) unknown_type_map: AtomicU64,
    pub(crate) referring_calls: AtomicU64,
    pub(crate) plain_calls: AtomicU64,
    pub(crate) referring_replies: AtomicU64,
}

impl MapCache {
    pub(crate) fn new(config: TypeMapConfig) -> MapCache {
        MapCache {
            config,
            state: Mutex::default(),
            learned: AtomicU64::new(0),
            evictions: AtomicU64::new(0),
            unknown_type_map: AtomicU64::new(0),
            referring_calls: AtomicU64::new(0),
            plain_calls: AtomicU64::new(0),
            referring_replies: AtomicU64::new(0),
        }
    }

    /// The map named `d`, if kept (and marks it used).
    pub(crate) fn get(&self, d: &Digest) -> Option<Arc<TypeMap>> {
        let mut s = self.state.lock().ok()?;
        s.touch(d).map(|e| e.map.clone())
    }

    /// The map named `d` if it is one of this server's own reply maps.
    pub(crate) fn own_reply_map(&self, d: &Digest) -> Option<Arc<TypeMap>> {
        let mut s = self.state.lock().ok()?;
        s.touch(d).filter(|e| e.own_reply).map(|e| e.map.clone())
    }

    /// Keeps the map of `classes` (a plain message's definitions, in order) when it is not
    /// empty and within the limits, and returns its digest; `None` when nothing was kept.
    pub(crate) fn learn(&self, classes: &[Arc<ClassDef>], own_reply: bool) -> Option<Digest> {
        if classes.is_empty() {
            return None;
        }
        let map = TypeMap::with_limits(classes.iter().cloned(), &self.config.map_limits).ok()?;
        let size = map.canonical().len();
        if size > self.config.max_bytes || self.config.max_maps == 0 {
            return None;
        }
        let digest = map.digest();
        let mut s = self.state.lock().ok()?;
        if let Some(e) = s.entries.get_mut(&digest) {
            e.own_reply |= own_reply;
            s.touch(&digest);
            return Some(digest);
        }
        while s.entries.len() >= self.config.max_maps || s.bytes + size > self.config.max_bytes {
            if s.evict_oldest().is_none() {
                break;
            }
            self.evictions.fetch_add(1, Ordering::Relaxed);
        }
        s.tick += 1;
        let tick = s.tick;
        s.bytes += size;
        s.entries.insert(digest, Entry { map: Arc::new(map), own_reply, tick });
        self.learned.fetch_add(1, Ordering::Relaxed);
        Some(digest)
    }

    pub(crate) fn stats(&self) -> ServerStats {
        let (maps, bytes) = self.state.lock().map(|s| (s.entries.len() as u64, s.bytes as u64)).unwrap_or_default();
        ServerStats {
            maps,
            bytes,
            learned: self.learned.load(Ordering::Relaxed),
            evictions: self.evictions.load(Ordering::Relaxed),
            unknown_type_map: self.unknown_type_map.load(Ordering::Relaxed),
            referring_calls: self.referring_calls.load(Ordering::Relaxed),
            plain_calls: self.plain_calls.load(Ordering::Relaxed),
            referring_replies: self.referring_replies.load(Ordering::Relaxed),
        }
    }
}

/// What a client's negotiation has done ([`Client::type_map_stats`]).
///
/// [`Client::type_map_stats`]: crate::Client::type_map_stats
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientStats {
    /// Calls made (each counted once, however many requests it took).
    pub calls: u64,
    /// Plain requests sent (resends included).
    pub plain_calls: u64,
    /// Referring requests sent.
    pub referring_calls: u64,
    /// Calls sent a second time, plain, after a referring attempt that ran nothing.
    pub resends: u64,
    /// Referring requests answered `UnknownTypeMap`.
    pub unknown_type_map: u64,
    /// Referring requests answered by a peer that turned out not to speak the extension.
    pub fallbacks: u64,
    /// Referring replies received.
    pub referring_replies: u64,
    /// Bytes of request bodies sent (resent ones included).
    pub request_bytes: u64,
    /// Bytes of reply bodies received.
    pub reply_bytes: u64,
}

#[derive(Default)]
pub(crate) struct ClientCounters {
    pub calls: AtomicU64,
    pub plain_calls: AtomicU64,
    pub referring_calls: AtomicU64,
    pub resends: AtomicU64,
    pub unknown_type_map: AtomicU64,
    pub fallbacks: AtomicU64,
    pub referring_replies: AtomicU64,
    pub request_bytes: AtomicU64,
    pub reply_bytes: AtomicU64,
}

impl ClientCounters {
    pub(crate) fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> ClientStats {
        let l = |c: &AtomicU64| c.load(Ordering::Relaxed);
        ClientStats {
            calls: l(&self.calls),
            plain_calls: l(&self.plain_calls),
            referring_calls: l(&self.referring_calls),
            resends: l(&self.resends),
            unknown_type_map: l(&self.unknown_type_map),
            fallbacks: l(&self.fallbacks),
            referring_replies: l(&self.referring_replies),
            request_bytes: l(&self.request_bytes),
            reply_bytes: l(&self.reply_bytes),
        }
    }
}

/// Whether an endpoint speaks the extension, as far as the client knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Support {
    /// Not known yet: calls are plain and offer the extension.
    Unknown,
    /// The endpoint answered the offer.
    Aware,
    /// The endpoint did not answer the offer (a plain Hessian 2 server), at this time: calls
    /// are plain and offer nothing until [`REPROBE_AFTER`] has passed.
    Plain(Instant),
}

/// How long a client treats an endpoint that ignored the offer as plain before it offers again.
pub(crate) const REPROBE_AFTER: Duration = Duration::from_secs(300);
/// Most methods whose maps a client keeps per endpoint.
const MAX_METHODS: usize = 1024;
/// Most endpoints whose state a client shares between its proxies.
pub(crate) const MAX_ENDPOINTS: usize = 1024;

/// The maps a client knows for one method of one endpoint.
#[derive(Clone, Default)]
pub(crate) struct MethodMaps {
    /// The map of the method's calls the endpoint confirmed.
    pub request: Option<Arc<TypeMap>>,
    /// A map of the endpoint's replies to the method.
    pub reply: Option<Arc<TypeMap>>,
    /// The last referring call defined classes beyond its map: send the next one plain.
    pub plain_next: bool,
}

struct EndpointState {
    support: Support,
    methods: HashMap<String, MethodMaps, KeyedHash>,
}

/// A client's knowledge of one endpoint (scheme, host, port, path).
pub(crate) struct Endpoint {
    state: Mutex<EndpointState>,
    pub(crate) limits: MapLimits,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (support, methods) = match self.state.lock() {
            Ok(s) => (Some(s.support), s.methods.len()),
            Err(_) => (None, 0),
        };
        f.debug_struct("Endpoint").field("support", &support).field("methods", &methods).finish()
    }
}

impl Endpoint {
    pub(crate) fn new() -> Endpoint {
        Endpoint {
            state: Mutex::new(EndpointState { support: Support::Unknown, methods: HashMap::default() }),
            limits: MapLimits::default(),
        }
    }

    /// The endpoint's support and what the next call of `method` may use (taking the
    /// "send the next call plain" mark).
    pub(crate) fn plan(&self, method: &str) -> (Support, MethodMaps) {
        let Ok(mut s) = self.state.lock() else { return (Support::Unknown, MethodMaps::default()) };
        if let Support::Plain(since) = s.support {
            if since.elapsed() >= REPROBE_AFTER {
                s.support = Support::Unknown;
            }
        }
        let support = s.support;
        if support != Support::Aware {
            return (support, MethodMaps::default());
        }
        match s.methods.get_mut(method) {
            None => (support, MethodMaps::default()),
            Some(m) => {
                let mut plan = m.clone();
                if std::mem::take(&mut m.plain_next) {
                    plan.request = None;
                }
                (support, plan)
            }
        }
    }

    fn method(&self, method: &str, f: impl FnOnce(&mut MethodMaps)) {
        let Ok(mut s) = self.state.lock() else { return };
        let full = s.methods.len() >= MAX_METHODS;
        match s.methods.get_mut(method) {
            Some(m) => f(m),
            None if !full => f(s.methods.entry(method.to_owned()).or_default()),
            None => {}
        }
    }

    /// The endpoint answered the offer.
    pub(crate) fn aware(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.support = Support::Aware;
        }
    }

    /// The endpoint does not speak the extension (now): forget every map.
    pub(crate) fn plain(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.support = Support::Plain(Instant::now());
            s.methods.clear();
        }
    }

    /// The endpoint confirmed `map` for calls of `method`.
    pub(crate) fn confirm_request(&self, method: &str, map: Arc<TypeMap>) {
        self.method(method, |m| m.request = Some(map));
    }

    /// The endpoint keeps `map` for its replies to `method`.
    pub(crate) fn confirm_reply(&self, method: &str, map: Arc<TypeMap>) {
        self.method(method, |m| m.reply = Some(map));
    }

    /// The endpoint no longer knows `map` (UnknownTypeMap): forget it for `method`.
    pub(crate) fn forget_request(&self, method: &str, map: &Arc<TypeMap>) {
        self.method(method, |m| {
            if m.request.as_ref().is_some_and(|r| Arc::ptr_eq(r, map)) {
                m.request = None;
            }
        });
    }

    /// A referring call of `method` had to define classes its map lacks.
    pub(crate) fn send_next_plain(&self, method: &str) {
        self.method(method, |m| m.plain_next = true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(name: &str) -> Vec<Arc<ClassDef>> {
        vec![ClassDef::new(name, ["a", "b"])]
    }

    #[test]
    fn offer_values() {
        assert!(offers(b"1"));
        assert!(offers(b" 2, 1 "));
        assert!(!offers(b"2"));
        assert!(!offers(b"11"));
        assert!(!offers(b""));
    }

    #[test]
    fn cache_evicts_least_recently_used_by_count_and_bytes() {
        let c = MapCache::new(TypeMapConfig { max_maps: 2, ..TypeMapConfig::default() });
        let a = c.learn(&classes("A"), false).unwrap();
        let b = c.learn(&classes("B"), true).unwrap();
        assert!(c.get(&a).is_some()); // A is now the most recently used
        let d = c.learn(&classes("D"), false).unwrap();
        assert!(c.get(&b).is_none(), "B was the least recently used");
        assert!(c.get(&a).is_some() && c.get(&d).is_some());
        let s = c.stats();
        assert_eq!((s.maps, s.learned, s.evictions), (2, 3, 1));
        assert_eq!(c.learn(&[], false), None, "an empty map is not kept");

        let size = TypeMap::new(classes("A")).unwrap().canonical().len();
        let c = MapCache::new(TypeMapConfig { max_bytes: size * 2, ..TypeMapConfig::default() });
        for n in ["A", "B", "C"] {
            c.learn(&classes(n), false).unwrap();
        }
        let s = c.stats();
        assert_eq!((s.maps, s.bytes, s.evictions), (2, 2 * size as u64, 1));
        let c = MapCache::new(TypeMapConfig { max_bytes: size - 1, ..TypeMapConfig::default() });
        assert_eq!(c.learn(&classes("A"), false), None, "larger than the whole cache");
    }

    #[test]
    fn only_own_reply_maps_are_used_for_replies() {
        let c = MapCache::new(TypeMapConfig::default());
        let a = c.learn(&classes("A"), false).unwrap();
        assert!(c.own_reply_map(&a).is_none());
        assert_eq!(c.learn(&classes("A"), true), Some(a));
        assert!(c.own_reply_map(&a).is_some());
    }

    #[test]
    fn map_limits_are_kept() {
        let limits = MapLimits { max_classes: 1, ..MapLimits::default() };
        let c = MapCache::new(TypeMapConfig { map_limits: limits, ..TypeMapConfig::default() });
        let two = [classes("A"), classes("B")].concat();
        assert_eq!(c.learn(&two, false), None);
        assert!(c.learn(&classes("A"), false).is_some());
    }
}
