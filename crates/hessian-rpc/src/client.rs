//! The client: a pooled, keep-alive HTTP/1.1 client speaking Hessian 2, Hessian 1 (pure or
//! Java's `c 2 0` hybrid) or Burlap, with per-call timeouts, `Value` calls and a blocking
//! facade for synchronous programs.

use crate::error::{Error, Result};
use crate::fault::RemoteFault;
use crate::negotiation::{self as neg, ClientCounters, ClientStats, Endpoint, Support};
use crate::protocol::{self, Dialect};
use crate::transport::{Response, Settings, Target, Transport};
use bytes::Bytes;
use hessian::negotiate::{Digest, TypeMap};
use hessian::serde::message::{reply_from_slice_negotiated, CallWriter};
use hessian::{Call, Format, Limits, Value};
use http::{StatusCode, Uri};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Client settings. More may come: start from `ClientConfig::default()` and set fields.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ClientConfig {
    /// The protocol of calls and replies.
    pub dialect: Dialect,
    /// Time allowed for one call, from sending to the complete reply.
    pub timeout: Duration,
    /// Time allowed to establish a connection.
    pub connect_timeout: Duration,
    /// How long an idle pooled connection is kept.
    pub pool_idle_timeout: Duration,
    /// Most idle connections kept per host.
    pub pool_max_idle_per_host: usize,
    /// Largest reply body accepted.
    pub max_reply_size: usize,
    /// Limits applied while decoding replies.
    pub limits: Limits,
    /// Type negotiation (`docs/negotiation.md`), in the Hessian 2 dialect: on by default.
    pub type_maps: bool,
    /// Extra request headers sent with every call (name, value), e.g. `Authorization` from
    /// [`ClientBuilder::basic_auth`].
    pub headers: Vec<(String, String)>,
    /// Whether `https://` servers may present certificates of the Mozilla roots
    /// (`webpki-roots`); on by default.
    pub built_in_roots: bool,
    /// More roots trusted for `https://` servers (a company CA, a self-signed certificate).
    pub root_certificates: Vec<rustls::pki_types::CertificateDer<'static>>,
    /// A complete TLS configuration that replaces the two above.
    pub tls_config: Option<Arc<rustls::ClientConfig>>,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            dialect: Dialect::HESSIAN2,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            pool_idle_timeout: Duration::from_secs(90),
            pool_max_idle_per_host: 64,
            max_reply_size: 256 * 1024 * 1024,
            limits: Limits::default().with_max_message_size(256 * 1024 * 1024),
            type_maps: true,
            headers: Vec::new(),
            built_in_roots: true,
            root_certificates: Vec::new(),
            tls_config: None,
        }
    }
}

/// Builds a [`Client`].
#[derive(Clone, Debug, Default)]
pub struct ClientBuilder {
    config: ClientConfig,
}

impl ClientBuilder {
    /// The dialect: [`Dialect::HESSIAN2`] (default), [`Dialect::HESSIAN1`],
    /// [`Dialect::HYBRID`] (what Java's proxy sends by default) or [`Dialect::BURLAP`].
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.config.dialect = dialect;
        self
    }

    /// Time allowed for one call.
    pub fn timeout(mut self, t: Duration) -> Self {
        self.config.timeout = t;
        self
    }

    /// Time allowed to connect.
    pub fn connect_timeout(mut self, t: Duration) -> Self {
        self.config.connect_timeout = t;
        self
    }

    /// How long idle pooled connections are kept.
    pub fn pool_idle_timeout(mut self, t: Duration) -> Self {
        self.config.pool_idle_timeout = t;
        self
    }

    /// Most idle connections kept per host.
    pub fn pool_max_idle_per_host(mut self, n: usize) -> Self {
        self.config.pool_max_idle_per_host = n;
        self
    }

    /// Largest reply accepted, in bytes.
    pub fn max_reply_size(mut self, bytes: usize) -> Self {
        self.config.max_reply_size = bytes;
        self.config.limits.max_message_size = bytes as u64;
        self
    }

    /// Whether to negotiate type maps with the endpoints (the type negotiation extension,
    /// `docs/negotiation.md`; default on, Hessian 2 dialect only). Off, every call is plain
    /// Hessian 2 and offers nothing.
    pub fn type_maps(mut self, on: bool) -> Self {
        self.config.type_maps = on;
        self
    }

    /// Sends the header `name: value` with every call (after the client's own). Names must be
    /// HTTP tokens and values visible text (no line breaks), or the first call fails with
    /// [`Error::InvalidHeader`].
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.config.headers.push((name.into(), value.into()));
        self
    }

    /// HTTP basic authentication on every call, as Caucho's `HessianProxyFactory.setUser` and
    /// `setPassword` send it: `Authorization: Basic base64(user:password)`.
    pub fn basic_auth(self, user: &str, password: &str) -> Self {
        let token = hessian::base64::encode(format!("{user}:{password}").as_bytes());
        self.header("Authorization", format!("Basic {token}"))
    }

    /// Trusts `cert` as a root for `https://` servers, besides the built-in ones (see
    /// [`crate::tls::certificates_from_pem`] to read certificates from PEM).
    pub fn add_root_certificate(mut self, cert: rustls::pki_types::CertificateDer<'static>) -> Self {
        self.config.root_certificates.push(cert);
        self
    }

    /// Whether to trust the built-in Mozilla roots for `https://` servers (default on); off,
    /// only the roots added with [`add_root_certificate`](Self::add_root_certificate) are.
    pub fn built_in_roots(mut self, on: bool) -> Self {
        self.config.built_in_roots = on;
        self
    }

    /// A complete rustls configuration for `https://` servers (client certificates, other
    /// verifiers), replacing the roots above. Offer `http/1.1` by ALPN, or none.
    pub fn tls_config(mut self, config: Arc<rustls::ClientConfig>) -> Self {
        self.config.tls_config = Some(config);
        self
    }

    /// Builds the client. Needs no runtime; calls must run inside a Tokio runtime (a pooled
    /// connection is only reused on the runtime that opened it).
    pub fn build(self) -> Client {
        let c = &self.config;
        let tls = match &c.tls_config {
            Some(t) => Ok(t.clone()),
            None => crate::tls::client_config(c.built_in_roots, &c.root_certificates).map_err(|e| e.to_string()),
        };
        let http = Transport::new(Settings {
            connect_timeout: c.connect_timeout,
            idle_timeout: c.pool_idle_timeout,
            max_idle_per_host: c.pool_max_idle_per_host,
            max_reply_size: c.max_reply_size,
            tls,
        });
        Client { http: Arc::new(http), config: Arc::new(self.config), negotiation: Arc::default() }
    }
}

/// A client's type negotiation state: what it knows of each endpoint, and its counters.
#[derive(Default)]
struct Negotiation {
    endpoints: Mutex<HashMap<String, Arc<Endpoint>>>,
    counters: ClientCounters,
    /// The heap bytes of the maps kept over all endpoints, within [`neg::CLIENT_MAX_BYTES`].
    budget: Arc<neg::ClientBudget>,
}

impl Negotiation {
    /// The shared state of the endpoint `uri` (a new, unshared one beyond the bound).
    fn endpoint(&self, uri: &Uri) -> Arc<Endpoint> {
        let Ok(mut all) = self.endpoints.lock() else { return Arc::new(Endpoint::new(self.budget.clone())) };
        let key = uri.to_string();
        if let Some(e) = all.get(&key) {
            return e.clone();
        }
        let e = Arc::new(Endpoint::new(self.budget.clone()));
        if all.len() < neg::MAX_ENDPOINTS {
            all.insert(key, e.clone());
        }
        e
    }
}

fn http_error(resp: &Response) -> Error {
    let status = match StatusCode::from_u16(resp.status) {
        Ok(s) => s,
        Err(_) => return Error::Transport(format!("invalid HTTP status {} in the reply", resp.status)),
    };
    Error::Http { status, content_type: resp.content_type.clone(), body: body_start(&resp.body) }
}

/// The start of a body for a diagnostic: for an HTML page, its title or first heading (else
/// its text without the tags); otherwise its first line; at most 200 characters, as text.
fn body_start(body: &[u8]) -> String {
    if let Some(summary) = html_summary(body) {
        return summary;
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(800)]);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let mut out: String = line.chars().take(200).collect();
    if out.len() < line.len() || body.len() > line.len() + 2 {
        out.push('…');
    }
    out
}

/// How much of an HTML page is searched for its title or heading.
const HTML_SCAN: usize = 64 * 1024;

/// What an HTML page says in brief: the text of its `<title>`, else of its first `<h1>` or
/// `<h2>`, else its text without the tags; `None` when the body is not HTML.
fn html_summary(body: &[u8]) -> Option<String> {
    let page = String::from_utf8_lossy(&body[..body.len().min(HTML_SCAN)]);
    let start = page.trim_start().get(..14).unwrap_or(page.trim_start()).to_ascii_lowercase();
    if !(start.starts_with("<!doctype html") || start.starts_with("<html") || start.starts_with("<head")) {
        return None;
    }
    let text = without_scripts(&page);
    // the ASCII lower-casing keeps every offset
    let lower = text.to_ascii_lowercase();
    // the content between `<tag …>` and `</tag>` (or the end)
    let element = |tag: &str| {
        let open = lower.find(&format!("<{tag}"))?;
        let after = open + 1 + tag.len();
        if !lower[after..].starts_with(|c: char| c == '>' || c.is_ascii_whitespace()) {
            return None;
        }
        let content = after + lower[after..].find('>')? + 1;
        let end = content + lower[content..].find(&format!("</{tag}")).unwrap_or(lower.len() - content);
        Some(page_text(&text[content..end]))
    };
    let summary = ["title", "h1", "h2"]
        .into_iter()
        .filter_map(element)
        .find(|t| !t.is_empty())
        .unwrap_or_else(|| page_text(&text));
    let mut out: String = summary.chars().take(200).collect();
    if out.len() < summary.len() {
        out.push('…');
    }
    Some(out)
}

/// HTML without its `<script>` and `<style>` elements (an unclosed one runs to the end).
fn without_scripts(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len());
    let mut at = 0;
    while let Some((open, close)) = ["<script", "<style"]
        .iter()
        .zip(["</script>", "</style>"])
        .filter_map(|(o, c)| Some((at + lower[at..].find(o)?, c)))
        .min()
    {
        out.push_str(&html[at..open]);
        match lower[open..].find(close) {
            Some(end) => at = open + end + close.len(),
            None => return out,
        }
    }
    out.push_str(&html[at..]);
    out
}

/// HTML as plain text: tags left out, the common entities decoded, white space collapsed.
fn page_text(html: &str) -> String {
    let mut plain = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        plain.push_str(&rest[..open]);
        plain.push(' ');
        match rest[open..].find('>') {
            Some(end) => rest = &rest[open + end + 1..],
            None => {
                rest = "";
                break;
            }
        }
    }
    plain.push_str(rest);
    let decoded = plain
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    collapse(&decoded)
}

/// `s` with each run of white space made one space, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether an HTTP 200 body cannot be a reply of `protocol`: it starts with a byte no reply of
/// that protocol starts with (`<` of an HTML page for the Hessians, anything but
/// `<burlap:reply` for Burlap). Anything that passes is left to the decoder.
fn not_a_reply(protocol: crate::Format, resp: &Response) -> bool {
    let body = &resp.body[..];
    match protocol {
        crate::Format::Hessian2 => !matches!(body.first(), Some(b'H' | b'R' | b'F' | b'r')),
        crate::Format::Hessian1 => !matches!(body.first(), Some(b'r' | b'H')),
        crate::Format::Burlap => {
            let start = body.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(body.len());
            !body[start..].starts_with(b"<burlap:reply")
        }
    }
}

fn not_hessian(resp: &Response) -> Error {
    Error::NotHessian { status: resp.status, content_type: resp.content_type.clone(), body: body_start(&resp.body) }
}

/// A configured header that cannot go on the wire as it is.
fn check_header(name: &str, value: &str) -> Result<()> {
    let token = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    let text = value.bytes().all(|b| b == b'\t' || (b' '..=b'~').contains(&b) || b >= 0x80);
    if token && text {
        Ok(())
    } else {
        Err(Error::InvalidHeader { name: name.to_owned(), value: value.to_owned() })
    }
}

/// A pooled client; clone it freely (clones share the pool).
///
/// Each call runs entirely in the caller's task: it takes an idle keep-alive connection to the
/// host (or connects), writes the request and reads the reply itself, with no background task.
#[derive(Clone, Debug)]
pub struct Client {
    http: Arc<Transport>,
    config: Arc<ClientConfig>,
    negotiation: Arc<Negotiation>,
}

impl std::fmt::Debug for Negotiation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Negotiation").field("stats", &self.counters.snapshot()).finish()
    }
}

impl Client {
    /// A client with default settings (Hessian 2).
    pub fn new() -> Client {
        ClientBuilder::default().build()
    }

    /// Starts a client configuration.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The settings in force.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// A proxy for the service at `url` (`http://host:port/path` or `https://…`).
    pub fn proxy(&self, url: &str) -> Result<Proxy> {
        let uri: Uri = url
            .parse()
            .map_err(|e: http::uri::InvalidUri| Error::InvalidUrl { url: url.to_owned(), reason: e.to_string() })?;
        if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.host().is_none() {
            return Err(Error::InvalidUrl {
                url: url.to_owned(),
                reason: "expected http://host[:port]/path or https://…".into(),
            });
        }
        let negotiates = self.config.type_maps && self.config.dialect == Dialect::HESSIAN2;
        let endpoint = negotiates.then(|| self.negotiation.endpoint(&uri));
        let port = crate::transport::port_of(&uri);
        Ok(Proxy { client: self.clone(), uri, port, endpoint, request_size: Arc::default() })
    }

    /// What the type negotiation has done so far, over all proxies of this client and its
    /// clones.
    pub fn type_map_stats(&self) -> ClientStats {
        self.negotiation.counters.snapshot()
    }

    /// Sends one encoded call to `uri` with `headers` (and the configured ones) and returns the
    /// response (any status).
    async fn post(&self, uri: &Uri, port: u16, headers: &[(&str, &str)], body: Vec<u8>) -> Result<Response> {
        let content_type = protocol::content_type(self.config.dialect.call);
        let c = &self.negotiation.counters;
        ClientCounters::add(&c.request_bytes, body.len() as u64);
        let target = Target::with_port(uri, port)?;
        let resp = if self.config.headers.is_empty() {
            self.http.post(&target, content_type, headers, &body).await?
        } else {
            let mut all: Vec<(&str, &str)> = headers.to_vec();
            for (name, value) in &self.config.headers {
                check_header(name, value)?;
                all.push((name, value));
            }
            self.http.post(&target, content_type, &all, &body).await?
        };
        ClientCounters::add(&c.reply_bytes, resp.body.len() as u64);
        Ok(resp)
    }
}

impl Default for Client {
    fn default() -> Self {
        Client::new()
    }
}

/// A handle on one remote service (a URL), sharing its client's connection pool.
#[derive(Clone, Debug)]
pub struct Proxy {
    client: Client,
    uri: Uri,
    /// The port of `uri` (worked out once: `Uri::port_u16` parses the authority every time).
    port: u16,
    /// What the client knows of this endpoint's type maps (when it negotiates).
    endpoint: Option<Arc<Endpoint>>,
    /// About the size of the last request: the next one's buffer starts that large, so that a
    /// typical call is written without growing (and copying) its buffer on the way.
    request_size: Arc<AtomicUsize>,
}

/// The most bytes a request buffer is allocated ahead (larger calls grow as they are written).
const MAX_REQUEST_HINT: usize = 64 * 1024;

impl Proxy {
    /// The service URL.
    pub fn url(&self) -> String {
        self.uri.to_string()
    }

    /// Calls `method` with `args`; a fault becomes [`Error::Fault`].
    pub async fn call(&self, method: &str, args: Vec<Value>) -> Result<Value> {
        self.call_with(Call::new(method, args)).await
    }

    /// A typed call: `args` is a tuple of `Serialize` values, the reply is decoded as `R`.
    pub async fn call_typed<A: crate::typed::IntoArgs, R: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        args: A,
    ) -> Result<R> {
        if let Some(ep) = &self.endpoint {
            return self.negotiated(ep, method, args.count(), |w| args.write_args(w)).await;
        }
        let cfg = &self.client.config;
        let d = cfg.dialect;
        let buf = self.request_buffer();
        let mut w = CallWriter::with_buffer(d.call, d.call_major(), method, &[], args.count(), buf)?;
        args.write_args(&mut w)?;
        let body = w.finish()?;
        self.note_request(body.len());
        let reply = self.post_plain(body).await?;
        match hessian::serde::message::reply_from_slice::<R>(d.reply, &reply, cfg.limits) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(f)) => Err(Error::Fault(RemoteFault::of(f, d.reply))),
            Err(e) => Err(Error::Reply(e)),
        }
    }

    /// A buffer for the next request, about as large as the last one.
    fn request_buffer(&self) -> Vec<u8> {
        Vec::with_capacity(self.request_size.load(Ordering::Relaxed))
    }

    /// Remembers the size of a request for the next one's buffer (with a little headroom).
    fn note_request(&self, len: usize) {
        let next = (len + len / 8 + 16).min(MAX_REQUEST_HINT);
        if self.request_size.load(Ordering::Relaxed) != next {
            self.request_size.store(next, Ordering::Relaxed);
        }
    }

    /// Sends an encoded call with `headers` within the configured timeout and returns the
    /// response (any status).
    async fn post(&self, headers: &[(&str, &str)], body: Vec<u8>) -> Result<Response> {
        let timeout = self.client.config.timeout;
        let post = self.client.post(&self.uri, self.port, headers, body);
        tokio::time::timeout(timeout, post).await.map_err(|_| Error::Timeout(timeout))?
    }

    /// Sends a plain call (no extension) and returns the body of its HTTP 200 reply.
    async fn post_plain(&self, body: Vec<u8>) -> Result<Bytes> {
        let c = &self.client.negotiation.counters;
        ClientCounters::add(&c.calls, 1);
        ClientCounters::add(&c.plain_calls, 1);
        let resp = self.post(&[], body).await?;
        if resp.status != 200 {
            return Err(http_error(&resp));
        }
        if not_a_reply(self.client.config.dialect.reply, &resp) {
            return Err(not_hessian(&resp));
        }
        Ok(resp.body)
    }

    /// Sends a call and returns the reply's body as it arrived, undecoded (a fault included),
    /// in the client's dialect. It is always a plain call, never one of the type negotiation,
    /// so the bytes are a complete message that any reader of the protocol can decode
    /// (`hessian decode`, for one).
    pub async fn call_raw(&self, call: &Call) -> Result<Bytes> {
        let body = protocol::encode_call(self.client.config.dialect, call)?;
        self.post_plain(body).await
    }

    /// A Hessian 2 call with type negotiation (`docs/negotiation.md` 4 to 8): refers to the
    /// method's map when the endpoint confirmed one, resends plain once when the endpoint
    /// answers that it does not know the map (or turns out not to speak the extension), and
    /// learns the maps the endpoint confirms from plain calls and replies.
    async fn negotiated<R, W>(&self, ep: &Endpoint, method: &str, argc: usize, write: W) -> Result<R>
    where
        R: serde::de::DeserializeOwned,
        W: Fn(&mut CallWriter) -> hessian::Result<()>,
    {
        let c = &self.client.negotiation.counters;
        ClientCounters::add(&c.calls, 1);
        let (mut support, plan) = ep.plan(method);
        let reply_hex = plan.reply.as_ref().map(|m| m.hex_str());
        let offer: (&str, &str) = (neg::OFFER_HEADER, neg::VERSION);
        // the offer, then the reply map when there is one
        let with_reply = [offer, (neg::REPLY_MAP_HEADER, reply_hex.unwrap_or_default())];
        let offer_headers = &with_reply[..if reply_hex.is_some() { 2 } else { 1 }];
        // a referring call offers the extension by its body (`docs/negotiation.md` 3): only the
        // reply map goes in a header (each header costs the server a parse)
        let referring_headers = &with_reply[1..offer_headers.len()];
        if let (Support::Aware, Some(map)) = (support, &plan.request) {
            let mut w = CallWriter::referring(Format::Hessian2, map, method, argc, self.request_buffer())?;
            write(&mut w)?;
            let (body, inline) = w.finish_with_classes()?;
            self.note_request(body.len());
            if !inline.is_empty() {
                // classes the map lacks: the next call establishes a map with all of them
                ep.send_next_plain(method);
            }
            ClientCounters::add(&c.referring_calls, 1);
            let resp = self.post(referring_headers, body).await?;
            // at most once (`docs/negotiation.md` 6.2): only an answer whose content proves that
            // nothing ran is followed by a resend; every other answer is the call's result
            if resp.status == 200 {
                match self.negotiated_reply(ep, method, &resp, plan.reply.as_ref()) {
                    Err(Error::Fault(f)) if neg::is_refusal(&f.0, map.hex_str()) => {
                        ClientCounters::add(&c.unknown_type_map, 1);
                        ep.forget_request(method, map);
                    }
                    result => return result,
                }
            } else if neg::is_caucho_refusal(&resp.body) {
                // a plain Caucho skeleton stopped at `T`, before it read the method
                ClientCounters::add(&c.fallbacks, 1);
                ep.plain();
                support = Support::Plain(std::time::Instant::now());
            } else {
                return Err(http_error(&resp));
            }
            ClientCounters::add(&c.resends, 1);
        }
        let offers = !matches!(support, Support::Plain(_));
        let mut w = CallWriter::with_buffer(Format::Hessian2, 2, method, &[], argc, self.request_buffer())?;
        write(&mut w)?;
        let (body, classes) = if offers { w.finish_with_classes()? } else { (w.finish()?, Vec::new()) };
        self.note_request(body.len());
        // the reply map is offered only to an endpoint known to be aware
        let (headers, reply_map) = match support {
            Support::Plain(_) => (&with_reply[..0], None),
            Support::Aware => (offer_headers, plan.reply.as_ref()),
            Support::Unknown => (&with_reply[..1], None),
        };
        ClientCounters::add(&c.plain_calls, 1);
        let resp = self.post(headers, body).await?;
        if offers && resp.status == 200 {
            if resp.header_values(neg::OFFER_HEADER).any(|v| neg::offers(v.as_bytes())) {
                ep.aware();
                let listed = listed_maps(&resp);
                if !classes.is_empty() && !listed.is_empty() {
                    if let Ok(mine) = TypeMap::with_limits(classes, &ep.limits) {
                        if listed.contains(&mine.digest()) {
                            ep.confirm_request(method, Arc::new(mine));
                        }
                    }
                }
            } else {
                ep.plain();
            }
        }
        self.negotiated_reply(ep, method, &resp, reply_map)
    }

    /// Decodes a reply of a negotiating call: a referring reply only for the map `offered`,
    /// and a plain reply's map kept when the endpoint lists it.
    fn negotiated_reply<R>(
        &self,
        ep: &Endpoint,
        method: &str,
        resp: &Response,
        offered: Option<&Arc<TypeMap>>,
    ) -> Result<R>
    where
        R: serde::de::DeserializeOwned,
    {
        if resp.status != 200 {
            return Err(http_error(resp));
        }
        if not_a_reply(crate::Format::Hessian2, resp) {
            return Err(not_hessian(resp));
        }
        let limits = self.client.config.limits;
        let lookup = |d: &Digest| offered.filter(|m| m.digest() == *d).cloned();
        let r =
            reply_from_slice_negotiated::<R, _>(Format::Hessian2, &resp.body, limits, lookup).map_err(Error::Reply)?;
        if r.type_map.is_some() {
            ClientCounters::add(&self.client.negotiation.counters.referring_replies, 1);
        } else if !r.classes.is_empty() {
            let listed = listed_maps(resp);
            if !listed.is_empty() && !offered.is_some_and(|m| listed.contains(&m.digest())) {
                if let Ok(m) = TypeMap::with_limits(r.classes, &ep.limits) {
                    if listed.contains(&m.digest()) {
                        ep.confirm_reply(method, Arc::new(m));
                    }
                }
            }
        }
        r.reply.map_err(|f| Error::Fault(RemoteFault::of(f, crate::Format::Hessian2)))
    }

    /// Calls with a prepared [`Call`] (which may carry headers, for Hessian 1 and Burlap).
    pub async fn call_with(&self, call: Call) -> Result<Value> {
        if let (Some(ep), true) = (&self.endpoint, call.headers.is_empty()) {
            let args = &call.args;
            let write = |w: &mut CallWriter| args.iter().try_for_each(|a| w.arg(a));
            return self.negotiated(ep, &call.method, args.len(), write).await;
        }
        let cfg = &self.client.config;
        let body = protocol::encode_call(cfg.dialect, &call)?;
        let reply = self.post_plain(body).await?;
        match protocol::decode_reply(cfg.dialect.reply, &reply, cfg.limits).map_err(Error::Reply)? {
            Ok(v) => Ok(v),
            Err(f) => Err(Error::Fault(RemoteFault::of(f, cfg.dialect.reply))),
        }
    }

    /// `_hessian_getAttribute(name)` (`_burlap_getAttribute` in Burlap): e.g. `java.api.class`
    /// gives the service's API class.
    pub async fn get_attribute(&self, name: &str) -> Result<Value> {
        let method = match self.client.config.dialect.call {
            crate::Format::Burlap => crate::service::BURLAP_GET_ATTRIBUTE,
            _ => crate::service::GET_ATTRIBUTE,
        };
        self.call(method, vec![Value::string(name)]).await
    }
}

/// The digests a reply's `Hessian-Type-Map` headers list.
fn listed_maps(resp: &Response) -> Vec<Digest> {
    resp.header_values(neg::TYPE_MAP_HEADER).flat_map(neg::digests).collect()
}

/// A blocking client for synchronous programs: owns a current-thread Tokio runtime, and each
/// call drives it with `block_on` on the calling thread, so a call runs entirely on the caller's
/// thread (no runtime thread, no hand-off). The pool's connections are registered with that
/// runtime's reactor and only ever used through it. Do not use it from inside an async task.
#[derive(Debug, Default)]
pub struct BlockingClient {
    client: Client,
    /// Made by the first [`proxy`](Self::proxy), so that making a client cannot fail.
    rt: std::sync::OnceLock<Arc<tokio::runtime::Runtime>>,
}

impl BlockingClient {
    /// A blocking client with default settings (Hessian 2), as [`Client::new`].
    pub fn new() -> BlockingClient {
        BlockingClient::with_builder(ClientBuilder::default())
    }

    /// A blocking client with the settings of `builder` (`Client::builder().dialect(…)`).
    pub fn with_builder(builder: ClientBuilder) -> BlockingClient {
        BlockingClient { client: builder.build(), rt: std::sync::OnceLock::new() }
    }

    /// The settings in force.
    pub fn config(&self) -> &ClientConfig {
        self.client.config()
    }

    /// A blocking proxy for the service at `url`. The first one starts the client's runtime,
    /// which fails only when the system refuses it the resources ([`Error::Io`]).
    pub fn proxy(&self, url: &str) -> Result<BlockingProxy> {
        let proxy = self.client.proxy(url)?;
        let rt = match self.rt.get() {
            Some(rt) => rt.clone(),
            None => {
                let rt = Arc::new(tokio::runtime::Builder::new_current_thread().enable_all().build()?);
                // two threads racing here both made one: the first stays, the other is dropped
                self.rt.get_or_init(|| rt).clone()
            }
        };
        Ok(BlockingProxy { rt, proxy })
    }

    /// What the type negotiation has done so far (see [`Client::type_map_stats`]).
    pub fn type_map_stats(&self) -> ClientStats {
        self.client.type_map_stats()
    }
}

/// The blocking counterpart of [`Proxy`].
#[derive(Clone, Debug)]
pub struct BlockingProxy {
    rt: Arc<tokio::runtime::Runtime>,
    proxy: Proxy,
}

impl BlockingProxy {
    /// Calls `method` with `args`, blocking until the reply arrives.
    pub fn call(&self, method: &str, args: Vec<Value>) -> Result<Value> {
        self.rt.block_on(self.proxy.call(method, args))
    }

    /// A typed call (see [`Proxy::call_typed`]), blocking.
    pub fn call_typed<A: crate::typed::IntoArgs, R: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        args: A,
    ) -> Result<R> {
        self.rt.block_on(self.proxy.call_typed(method, args))
    }

    /// Calls with a prepared [`Call`].
    pub fn call_with(&self, call: Call) -> Result<Value> {
        self.rt.block_on(self.proxy.call_with(call))
    }
}

#[cfg(test)]
mod tests {
    use super::body_start;

    #[test]
    fn html_pages_are_summed_up_by_title_or_heading() {
        // Jetty's error page for a body HessianServlet could not read
        let jetty = "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n\
            <title>Error 500 java.io.IOException: Unexpected end of file for Hessian message</title>\n</head>\n\
            <body><h2>HTTP ERROR 500 java.io.IOException: Unexpected end of file</h2>\n<table>\n</table>\n</body>\n</html>\n";
        assert_eq!(
            body_start(jetty.as_bytes()),
            "Error 500 java.io.IOException: Unexpected end of file for Hessian message"
        );
        let h1 = "<!DOCTYPE html><HTML><body><script>var x = '<h1>no</h1>';</script><H1 class=\"e\">Bad &amp; \
            <em>worse</em></H1></body></HTML>";
        assert_eq!(body_start(h1.as_bytes()), "Bad & worse");
        let plain = "<html>\n<body>down for\n maintenance</body>\n";
        assert_eq!(body_start(plain.as_bytes()), "down for maintenance");
        let long = format!("<html><title>{}</title>", "x".repeat(300));
        assert_eq!(body_start(long.as_bytes()), format!("{}…", "x".repeat(200)));
        // unclosed tags and text that is not HTML
        assert_eq!(body_start(b"<html><title>cut"), "cut");
        assert_eq!(body_start(b"<html><h2"), "");
        assert_eq!(body_start(b"plain text\nsecond line"), "plain text…");
        assert_eq!(body_start("<html><title>caf\u{e9} <b".as_bytes()), "caf\u{e9}");
    }
}
