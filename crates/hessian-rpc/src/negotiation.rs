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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    fault.code == UNKNOWN_TYPE_MAP && fault.message().is_some_and(|m| m.contains(hex))
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

/// Whose type maps a server keeps apart (`docs/negotiation.md` 7 and 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MapScope {
    /// Each client's maps are its own: a scope is the peer's IP address together with the
    /// request's `Authorization` header (the user `AuthLayer` checks, when there is one). A
    /// client can then only ever hit maps it taught this server itself, so a hit or a miss
    /// tells it nothing about other clients, and nothing it sends can be taken for another
    /// client's map. Clients behind one proxy without authentication share a scope.
    PerClient,
    /// One scope for every client: a map one client taught serves all (fewer resends behind a
    /// load balancer), and a client can learn whether a map is in use.
    Shared,
}

/// The server's type-map settings (`docs/negotiation.md` section 7; `SECURITY.md`). More may
/// come: start from `TypeMapConfig::default()` and set fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TypeMapConfig {
    /// Whether the server speaks the extension at all (when off, it answers every call as a
    /// plain Hessian 2 server does, and a referring call gets the refusal of section 6.1).
    pub enabled: bool,
    /// Most maps kept (request and reply maps in one cache): each map weighs at least
    /// `max_bytes / max_maps`. 0 keeps none.
    pub max_maps: usize,
    /// Most heap bytes the kept maps take, counted as an allocator counts them (the maps'
    /// strings, lists and canonical bytes and the cache's own entry for each).
    pub max_bytes: usize,
    /// Bounds on one map: a plain call or reply whose classes exceed them is served, and its
    /// map not kept.
    pub map_limits: MapLimits,
    /// Whose maps are kept apart.
    pub scope: MapScope,
}

impl Default for TypeMapConfig {
    fn default() -> Self {
        TypeMapConfig {
            enabled: true,
            max_maps: 1024,
            max_bytes: 4 * 1024 * 1024,
            map_limits: MapLimits::default(),
            scope: MapScope::PerClient,
        }
    }
}

/// What a server's type-map cache holds and has done ([`HessianServer::type_map_stats`]).
///
/// [`HessianServer::type_map_stats`]: crate::HessianServer::type_map_stats
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerStats {
    /// Maps kept now.
    pub maps: u64,
    /// Heap bytes the kept maps weigh now (see [`TypeMapConfig::max_bytes`]).
    pub bytes: u64,
    /// Maps learned (kept) from plain calls and plain replies.
    pub learned: u64,
    /// Maps evicted to stay within the limits.
    pub evictions: u64,
    /// Plain messages whose map had the digest of a kept map with other content (a digest
    /// collision, or a forged map): neither kept nor listed, and the kept map left as it was.
    pub collisions: u64,
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

/// A kept map.
struct Entry {
    map: Arc<TypeMap>,
    /// A map of this server's own plain replies: the only kind it refers to in replies.
    own_reply: AtomicBool,
    /// Its weight in the cache (heap bytes, at least the per-map share of the byte budget).
    weight: u64,
}

/// A map's key: the scope it was learned in and its digest.
type Key = (u64, Digest);

/// The heap bytes of one cache entry besides its map: the `Arc<Entry>` allocation and the
/// cache's own slot (key, value, hash and bookkeeping), as measured with a counting allocator
/// (`tests/map_cache_memory.rs`).
const ENTRY_OVERHEAD: usize = 2 * std::mem::size_of::<usize>() + std::mem::size_of::<Entry>() + 136;

/// The share of the cache's budget for maps used more than once (`quick_cache`'s default): the
/// rest is the probation queue new maps enter.
const HOT_ALLOCATION: f64 = 0.97;

#[derive(Clone)]
struct ByWeight;

impl quick_cache::Weighter<Key, Arc<Entry>> for ByWeight {
    fn weight(&self, _key: &Key, e: &Arc<Entry>) -> u64 {
        e.weight
    }
}

/// Counts evictions.
#[derive(Clone, Default)]
struct Evictions(Arc<AtomicU64>);

impl quick_cache::Lifecycle<Key, Arc<Entry>> for Evictions {
    type RequestState = ();
    fn on_evict(&self, _: &mut (), _key: Key, _val: Arc<Entry>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// The server's maps: content-addressed per scope, bounded by heap bytes and count, with
/// `quick_cache`'s S3-FIFO policy: a new map enters a small probation queue and reaches the
/// main one only when it is used again, so a flood of maps used once (junk from one client)
/// passes through probation and never evicts the maps in use.
pub(crate) struct MapCache {
    config: TypeMapConfig,
    maps: quick_cache::sync::Cache<Key, Arc<Entry>, ByWeight, KeyedHash, Evictions>,
    /// The key of [`scope_of`](Self::scope_of)'s hash: which scopes share a hash cannot be
    /// predicted.
    scope_key: KeyedHash,
    /// The least weight of a map: the byte budget's share per map.
    min_weight: u64,
    learned: AtomicU64,
    evictions: Evictions,
    collisions: AtomicU64,
    pub(crate) unknown_type_map: AtomicU64,
    pub(crate) referring_calls: AtomicU64,
    pub(crate) plain_calls: AtomicU64,
    pub(crate) referring_replies: AtomicU64,
}

impl MapCache {
    pub(crate) fn new(config: TypeMapConfig) -> MapCache {
        // a map may weigh at most the main queue's share of the budget, so the least weight
        // that keeps the count within `max_maps` is capped there (one map for `max_maps` 1)
        let hot_share = (config.max_bytes as f64 * HOT_ALLOCATION) as u64;
        let min_weight = ((config.max_bytes / config.max_maps.max(1)) as u64).min(hot_share);
        let evictions = Evictions::default();
        // one shard: an entry may weigh up to the whole budget (a shard holds its share only)
        let options = quick_cache::OptionsBuilder::new()
            .estimated_items_capacity(config.max_maps.clamp(1, 4096))
            .weight_capacity(config.max_bytes as u64)
            .hot_allocation(HOT_ALLOCATION)
            .shards(1)
            .build()
            .expect("valid cache options");
        MapCache {
            config,
            maps: quick_cache::sync::Cache::with_options(options, ByWeight, KeyedHash::default(), evictions.clone()),
            scope_key: KeyedHash::default(),
            min_weight,
            learned: AtomicU64::new(0),
            evictions,
            collisions: AtomicU64::new(0),
            unknown_type_map: AtomicU64::new(0),
            referring_calls: AtomicU64::new(0),
            plain_calls: AtomicU64::new(0),
            referring_replies: AtomicU64::new(0),
        }
    }

    /// The scope of a request from `peer` with the `Authorization` header `auth`, as the
    /// configuration keeps scopes ([`MapScope`]).
    pub(crate) fn scope_of(&self, peer: Option<std::net::IpAddr>, auth: Option<&[u8]>) -> u64 {
        use std::hash::{BuildHasher as _, Hash as _, Hasher as _};
        if self.config.scope == MapScope::Shared {
            return 0;
        }
        let mut h = self.scope_key.build_hasher();
        peer.hash(&mut h);
        auth.hash(&mut h);
        h.finish()
    }

    /// The map named `d` in `scope`, if kept (and marks it used).
    pub(crate) fn get(&self, scope: u64, d: &Digest) -> Option<Arc<TypeMap>> {
        self.maps.get(&(scope, *d)).map(|e| e.map.clone())
    }

    /// The map named `d` in `scope` if it is one of this server's own reply maps.
    pub(crate) fn own_reply_map(&self, scope: u64, d: &Digest) -> Option<Arc<TypeMap>> {
        self.maps.get(&(scope, *d)).filter(|e| e.own_reply.load(Ordering::Relaxed)).map(|e| e.map.clone())
    }

    /// Keeps the map of `classes` (a plain message's definitions, in order) in `scope` when it
    /// is not empty and within the limits, and returns its digest; `None` when nothing was
    /// kept. A kept map with the same digest is compared by content: another content under one
    /// digest (a collision) keeps nothing and lists nothing.
    pub(crate) fn learn(&self, scope: u64, classes: &[Arc<ClassDef>], own_reply: bool) -> Option<Digest> {
        self.learn_with(scope, classes, own_reply, TypeMap::digest)
    }

    /// [`learn`](Self::learn) with the digest computed by `digest` (a test can force
    /// collisions with a weak one).
    fn learn_with(
        &self,
        scope: u64,
        classes: &[Arc<ClassDef>],
        own_reply: bool,
        digest: impl Fn(&TypeMap) -> Digest,
    ) -> Option<Digest> {
        if classes.is_empty() || self.config.max_maps == 0 {
            return None;
        }
        let map = TypeMap::with_limits(classes.iter().cloned(), &self.config.map_limits).ok()?;
        let d = digest(&map);
        // a map taught again is not a use of it (a peek, which leaves its standing in the cache
        // as it was): only referring messages are, so that a client cannot promote maps it
        // never refers to by sending them twice (or by the reply that repeats a call's classes)
        if let Some(e) = self.maps.peek(&(scope, d)) {
            if e.map.canonical() != map.canonical() {
                self.collisions.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            if own_reply {
                e.own_reply.store(true, Ordering::Relaxed);
            }
            return Some(d);
        }
        let weight = ((map.heap_bytes() + ENTRY_OVERHEAD) as u64).max(self.min_weight);
        if weight > (self.config.max_bytes as f64 * HOT_ALLOCATION) as u64 {
            return None;
        }
        let entry = Entry { map: Arc::new(map), own_reply: AtomicBool::new(own_reply), weight };
        self.maps.insert((scope, d), Arc::new(entry));
        self.learned.fetch_add(1, Ordering::Relaxed);
        Some(d)
    }

    pub(crate) fn stats(&self) -> ServerStats {
        ServerStats {
            maps: self.maps.len() as u64,
            bytes: self.maps.weight(),
            learned: self.learned.load(Ordering::Relaxed),
            evictions: self.evictions.0.load(Ordering::Relaxed),
            collisions: self.collisions.load(Ordering::Relaxed),
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

/// Most heap bytes of maps a client keeps over all its endpoints ([`TypeMap::heap_bytes`]):
/// a map confirmed beyond it is not used (its calls stay plain).
pub(crate) const CLIENT_MAX_BYTES: usize = 4 * 1024 * 1024;

/// The heap bytes of maps a client keeps, shared by its endpoints.
#[derive(Debug, Default)]
pub(crate) struct ClientBudget(AtomicU64);

impl ClientBudget {
    /// Takes `n` bytes if they fit under [`CLIENT_MAX_BYTES`].
    fn take(&self, n: usize) -> bool {
        let n = n as u64;
        self.0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                (used + n <= CLIENT_MAX_BYTES as u64).then_some(used + n)
            })
            .is_ok()
    }

    fn give_back(&self, n: usize) {
        self.0.fetch_sub(n as u64, Ordering::Relaxed);
    }

    /// The bytes taken now.
    #[cfg(test)]
    pub(crate) fn used(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

struct EndpointState {
    support: Support,
    methods: HashMap<String, MethodMaps, KeyedHash>,
}

/// A client's knowledge of one endpoint (scheme, host, port, path).
pub(crate) struct Endpoint {
    state: Mutex<EndpointState>,
    pub(crate) limits: MapLimits,
    budget: Arc<ClientBudget>,
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        if let Ok(s) = self.state.get_mut() {
            s.methods.values().for_each(|m| m.release(&self.budget));
        }
    }
}

impl MethodMaps {
    /// Gives the bytes of its maps back to `budget`.
    fn release(&self, budget: &ClientBudget) {
        for m in self.request.iter().chain(self.reply.iter()) {
            budget.give_back(m.heap_bytes());
        }
    }
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
    pub(crate) fn new(budget: Arc<ClientBudget>) -> Endpoint {
        Endpoint {
            state: Mutex::new(EndpointState { support: Support::Unknown, methods: HashMap::default() }),
            limits: MapLimits::default(),
            budget,
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
            s.methods.values().for_each(|m| m.release(&self.budget));
            s.methods.clear();
        }
    }

    /// Puts `map` in `slot` within the client's byte budget (the old map's bytes given back;
    /// a map over the budget is not kept).
    fn keep(budget: &ClientBudget, slot: &mut Option<Arc<TypeMap>>, map: Option<Arc<TypeMap>>) {
        if let Some(old) = slot.take() {
            budget.give_back(old.heap_bytes());
        }
        *slot = map.filter(|m| budget.take(m.heap_bytes()));
    }

    /// The endpoint confirmed `map` for calls of `method`.
    pub(crate) fn confirm_request(&self, method: &str, map: Arc<TypeMap>) {
        self.method(method, |m| Self::keep(&self.budget, &mut m.request, Some(map)));
    }

    /// The endpoint keeps `map` for its replies to `method`.
    pub(crate) fn confirm_reply(&self, method: &str, map: Arc<TypeMap>) {
        self.method(method, |m| Self::keep(&self.budget, &mut m.reply, Some(map)));
    }

    /// The endpoint no longer knows `map` (UnknownTypeMap): forget it for `method`.
    pub(crate) fn forget_request(&self, method: &str, map: &Arc<TypeMap>) {
        self.method(method, |m| {
            if m.request.as_ref().is_some_and(|r| Arc::ptr_eq(r, map)) {
                Self::keep(&self.budget, &mut m.request, None);
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

    fn junk(i: usize) -> Vec<Arc<ClassDef>> {
        vec![ClassDef::new(format!("junk.J{i}"), ["a"])]
    }

    #[test]
    fn the_cache_keeps_its_count_and_byte_bounds() {
        let c = MapCache::new(TypeMapConfig { max_maps: 2, ..TypeMapConfig::default() });
        for n in ["A", "B", "C", "D"] {
            c.learn(0, &classes(n), false).unwrap();
        }
        let s = c.stats();
        assert!(s.maps <= 2 && s.evictions >= 2, "{s:?}");
        assert_eq!(s.learned, 4);
        assert_eq!(c.learn(0, &[], false), None, "an empty map is not kept");
        for max_maps in [1, 2, 3] {
            let c = MapCache::new(TypeMapConfig { max_maps, ..TypeMapConfig::default() });
            for (i, n) in ["A", "B", "C", "D", "E"].into_iter().enumerate() {
                let d = c.learn(0, &classes(n), false).unwrap();
                assert!(c.get(0, &d).is_some(), "the map just learned is kept ({max_maps} maps)");
                assert_eq!(c.stats().maps as usize, (i + 1).min(max_maps), "{:?}", c.stats());
            }
        }
        let none = MapCache::new(TypeMapConfig { max_maps: 0, ..TypeMapConfig::default() });
        assert_eq!(none.learn(0, &classes("A"), false), None, "a cache of no maps keeps none");

        let one = TypeMap::new(classes("A")).unwrap().heap_bytes() + ENTRY_OVERHEAD;
        let c = MapCache::new(TypeMapConfig { max_bytes: one * 10, max_maps: 1000, ..TypeMapConfig::default() });
        for i in 0..100 {
            c.learn(0, &junk(i), false).unwrap();
            assert!(c.stats().bytes <= one as u64 * 10, "{:?}", c.stats());
        }
        let c = MapCache::new(TypeMapConfig { max_bytes: one - 1, max_maps: 1, ..TypeMapConfig::default() });
        assert_eq!(c.learn(0, &classes("A"), false), None, "larger than the whole cache");
    }

    #[test]
    fn a_flood_of_maps_used_once_does_not_evict_a_map_in_use() {
        let c = MapCache::new(TypeMapConfig { max_maps: 64, ..TypeMapConfig::default() });
        let hot = c.learn(0, &classes("Hot"), false).unwrap();
        let mut misses = 0;
        for i in 0..20_000 {
            c.learn(1, &junk(i), false);
            if c.get(0, &hot).is_none() {
                misses += 1;
                c.learn(0, &classes("Hot"), false);
            }
        }
        assert_eq!(misses, 0, "{:?}", c.stats());
        assert!(c.stats().evictions > 19_000, "{:?}", c.stats());
        // a map used rarely: thousands of junk maps between two uses
        let c = MapCache::new(TypeMapConfig::default());
        let hot = c.learn(0, &classes("Hot"), false).unwrap();
        let mut misses = 0;
        for i in 0..200_000 {
            // each junk map taught twice, as a call and as the reply that echoes its object
            c.learn(1, &junk(i), false);
            c.learn(1, &junk(i), true);
            if i % 2000 == 0 && c.get(0, &hot).is_none() {
                misses += 1;
                c.learn(0, &classes("Hot"), false);
            }
        }
        assert_eq!(misses, 0, "{:?}", c.stats());
    }

    #[test]
    fn scopes_are_apart_and_a_digest_hit_is_checked_by_content() {
        let c = MapCache::new(TypeMapConfig::default());
        let a = c.learn(1, &classes("A"), false).unwrap();
        assert!(c.get(1, &a).is_some());
        assert!(c.get(2, &a).is_none(), "another client's scope");
        assert_ne!(c.scope_of(None, Some(b"Basic YTpi")), c.scope_of(None, Some(b"Basic YzpkO")));
        assert_ne!(c.scope_of(Some([10, 0, 0, 1].into()), None), c.scope_of(Some([10, 0, 0, 2].into()), None));
        let shared = MapCache::new(TypeMapConfig { scope: MapScope::Shared, ..TypeMapConfig::default() });
        assert_eq!(shared.scope_of(Some([10, 0, 0, 1].into()), None), shared.scope_of(None, Some(b"x")));

        // a forced collision: every map gets one digest
        let weak = |_: &TypeMap| [7u8; 16];
        let c = MapCache::new(TypeMapConfig::default());
        assert_eq!(c.learn_with(0, &classes("A"), false, weak), Some([7; 16]));
        assert_eq!(c.learn_with(0, &classes("B"), false, weak), None, "another map under a kept digest");
        assert_eq!(c.learn_with(0, &classes("A"), true, weak), Some([7; 16]), "the same map again");
        let kept = c.get(0, &[7; 16]).unwrap();
        assert_eq!(kept.classes()[0].name, "A", "the kept map is left as it was");
        assert_eq!(c.stats().collisions, 1);
    }

    #[test]
    fn only_own_reply_maps_are_used_for_replies() {
        let c = MapCache::new(TypeMapConfig::default());
        let a = c.learn(0, &classes("A"), false).unwrap();
        assert!(c.own_reply_map(0, &a).is_none());
        assert_eq!(c.learn(0, &classes("A"), true), Some(a));
        assert!(c.own_reply_map(0, &a).is_some());
    }

    #[test]
    fn a_client_keeps_maps_within_one_budget_over_all_endpoints() {
        let budget = Arc::new(ClientBudget::default());
        // more endpoints than the budget's maps need at 1,024 methods each
        let mut eps: Vec<Endpoint> = (0..32).map(|_| Endpoint::new(budget.clone())).collect();
        eps.iter().for_each(Endpoint::aware);
        let one = TypeMap::new(junk(0)).unwrap().heap_bytes() as u64;
        let fits = (CLIENT_MAX_BYTES as u64 / one) as usize;
        assert!(fits < 32 * MAX_METHODS, "{fits}");
        for i in 0..fits + 64 {
            eps[i % 32].confirm_request(&format!("m{i}"), Arc::new(TypeMap::new(junk(i)).unwrap()));
        }
        let used = budget.used();
        assert!(used <= CLIENT_MAX_BYTES as u64 && used > CLIENT_MAX_BYTES as u64 - 2 * one, "{used}");
        let kept = |i: usize| eps[i % 32].plan(&format!("m{i}")).1.request.is_some();
        assert!(kept(0) && !kept(fits + 63), "a map over the budget is not kept");
        eps[0].plain();
        assert!(budget.used() < used, "an endpoint turned plain gives its maps' bytes back");
        eps.clear();
        assert_eq!(budget.used(), 0, "every map's bytes given back");
    }

    #[test]
    fn map_limits_are_kept() {
        let limits = MapLimits { max_classes: 1, ..MapLimits::default() };
        let c = MapCache::new(TypeMapConfig { map_limits: limits, ..TypeMapConfig::default() });
        let two = [classes("A"), classes("B")].concat();
        assert_eq!(c.learn(0, &two, false), None);
        assert!(c.learn(0, &classes("A"), false).is_some());
    }
}
