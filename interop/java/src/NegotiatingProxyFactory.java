import com.caucho.hessian.client.HessianConnectionException;
import com.caucho.hessian.client.HessianProxy;
import com.caucho.hessian.client.HessianProxyFactory;
import com.caucho.hessian.client.HessianRuntimeException;
import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.HessianProtocolException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A HessianProxyFactory whose proxies speak the type negotiation extension (docs/negotiation.md)
 * on top of Caucho's unchanged Hessian2Output/Hessian2Input: every call offers
 * {@code Hessian-Type-Maps: 1}; to an endpoint that confirmed it, a method whose map the server
 * confirmed is called with a referring message ({@code H 02 01 T 30 <digest>}, the map's classes
 * pre-defined in the output). At most once (section 6): a referring call is resent, once and plain,
 * only after an answer whose body proves nothing ran (the UnknownTypeMap fault naming its digest,
 * or Caucho's refusal of {@code T}); every other answer is the call's result. Reply maps the server
 * confirmed are offered with {@code Hessian-Reply-Map}, and referring replies are read where they
 * stand, the map's classes pre-defined from a plan resolved once per map (PlannedInput).
 */
public class NegotiatingProxyFactory extends HessianProxyFactory {
  /** Client-side bound on (endpoint, method) entries, least recently used evicted. */
  private final int maxEntries;

  enum Support { UNKNOWN, AWARE, PLAIN }

  /** Per endpoint (scheme, host, port, path). */
  final Map<String, Support> endpoints = new ConcurrentHashMap<>();

  /**
   * A confirmed request map and the class written under each of its type names when it was
   * confirmed: a referring call pre-defines the map's classes by name (Negotiation.seed), so it
   * is sent only if each object written under one of those names is of that very Class (another
   * class loader may have a class of the same name with other fields).
   */
  static final class RequestMap {
    final TypeMap map;
    /** The Class written under each of the map's class numbers. */
    final Class<?>[] classes;
    RequestMap(TypeMap map, Class<?>[] classes) { this.map = map; this.classes = classes; }
  }

  /** Per (endpoint, method): the confirmed request and reply maps. */
  static final class MethodState {
    RequestMap requestMap;
    TypeMap replyMap;
    /** The last referring call had to define classes inline: the next call is plain (4.2). */
    boolean plainNext;
    /** Digests this method no longer refers to: another class was written under their names. */
    final Set<String> mixedMaps = new HashSet<>();
  }

  private final LinkedHashMap<String, MethodState> methods;

  public final AtomicLong calls = new AtomicLong(), plainRequests = new AtomicLong(),
      referringRequests = new AtomicLong(), resends = new AtomicLong(), unknownTypeMap = new AtomicLong(),
      fallbacks = new AtomicLong(), referringReplies = new AtomicLong(), plainReplies = new AtomicLong(),
      requestMapsConfirmed = new AtomicLong(), replyMapsConfirmed = new AtomicLong(), collisions = new AtomicLong(),
      classMismatches = new AtomicLong();

  /** What the last call of this thread sent and received. */
  public static final class CallRecord {
    public int requestBytes;
    public int firstAttemptBytes;
    public int replyBytes;
    public boolean referringRequest;
    public boolean referringReply;
    public boolean resent;
    /** The digests the answer listed in Hessian-Type-Map. */
    public List<String> typeMaps = List.of();
  }

  private final ThreadLocal<CallRecord> last = ThreadLocal.withInitial(CallRecord::new);

  static {
    // At most once: the JDK's HttpURLConnection silently sends a POST again when a kept-alive
    // connection fails before the answer (sun.net.http.retryPost, on by default), and the
    // server may have run the first one. Turned off unless the JVM was told otherwise; the JDK
    // reads it when it first loads its HTTP client, so set it on the command line to be sure.
    if (System.getProperty("sun.net.http.retryPost") == null) System.setProperty("sun.net.http.retryPost", "false");
  }

  public NegotiatingProxyFactory() { this(1024); }

  public NegotiatingProxyFactory(int maxEntries) {
    this.maxEntries = maxEntries;
    this.methods = new LinkedHashMap<String, MethodState>(16, 0.75f, true) {
      @Override protected boolean removeEldestEntry(Map.Entry<String, MethodState> e) {
        return size() > NegotiatingProxyFactory.this.maxEntries;
      }
    };
    setHessian2Request(true);
  }

  public CallRecord lastCall() { return last.get(); }

  /** The counters as "key=value" pairs, for the check programs' summary lines. */
  public String counters() {
    return "calls=" + calls + " plain_requests=" + plainRequests + " referring_requests=" + referringRequests
        + " resends=" + resends + " unknown_type_map=" + unknownTypeMap + " fallbacks=" + fallbacks
        + " referring_replies=" + referringReplies + " plain_replies=" + plainReplies + " request_maps="
        + requestMapsConfirmed + " reply_maps=" + replyMapsConfirmed + " collisions=" + collisions
        + " class_mismatches=" + classMismatches;
  }

  public Support support(URL url) { return endpoints.getOrDefault(endpoint(url), Support.UNKNOWN); }

  static String endpoint(URL u) {
    int port = u.getPort() < 0 ? u.getDefaultPort() : u.getPort();
    return u.getProtocol() + "://" + u.getHost().toLowerCase() + ":" + port + u.getPath();
  }

  @Override
  public Object create(Class<?> api, URL url, ClassLoader loader) {
    if (api == null) throw new NullPointerException("api must not be null for HessianProxyFactory.create()");
    return Proxy.newProxyInstance(loader, new Class<?>[] {api, com.caucho.hessian.io.HessianRemoteObject.class},
        new NegotiatingProxy(url, this, api));
  }

  MethodState state(String key) {
    synchronized (methods) {
      return methods.computeIfAbsent(key, k -> new MethodState());
    }
  }

  /** One HTTP exchange's result. */
  static final class Response {
    int status;
    byte[] body;
    boolean aware;
    List<String> typeMaps;
  }

  /**
   * Whether a body is the refusal of 6.1 for the map {@code hex}: a plain Hessian 2 fault whose
   * code is UnknownTypeMap and whose message names that digest. The body is the proof, with or
   * without the Hessian-Type-Map-Unknown header (a hop may drop headers).
   */
  static boolean refusesMap(byte[] body, String hex) {
    if (body.length < 4 || body[0] != 'H' || body[1] != 2 || body[2] != 0 || body[3] != 'F') return false;
    try {
      Object fault = new Hessian2Input(new ByteArrayInputStream(body, 4, body.length - 4)).readObject();
      if (!(fault instanceof Map)) return false;
      Object code = ((Map<?, ?>) fault).get("code"), message = ((Map<?, ?>) fault).get("message");
      return "UnknownTypeMap".equals(code) && message instanceof String && ((String) message).contains(hex);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Caucho's Hessian2Input refusing {@code T} where it expects a call, as text or HTML-escaped. */
  private static final String[] CAUCHO_REFUSALS = {
    "expected hessian call ('C') at 0x54",
    "expected hessian call (&#39;C&#39;) at 0x54",
    "expected hessian call (&apos;C&apos;) at 0x54",
  };

  /** Whether an HTTP error body holds Caucho's refusal of a referring call's {@code T}. */
  static boolean cauchoRefusal(byte[] body) {
    String text = new String(body, StandardCharsets.ISO_8859_1);
    for (String r : CAUCHO_REFUSALS) if (text.contains(r)) return true;
    return false;
  }

  /** The map of a plain message (a call sent, a reply read) when the server listed its digest. */
  static TypeMap listedMap(byte[] plain, Response r) {
    if (!r.aware || r.typeMaps.isEmpty()) return null;
    try {
      TypeMap m = TypeMap.ofMessage(plain);
      return m.withinLimits() && r.typeMaps.contains(m.hex) ? m : null;
    } catch (IOException e) {
      return null; // a malformed reply: its decoder reports it
    }
  }

  /**
   * Remembers the request and reply maps (either may be null) the server listed for one exchange
   * of st's method, unless a digest would then name two contents at this client (across all its
   * endpoints): a collision (a request and a reply map of one digest, or a map whose digest another
   * confirmed map already has) keeps neither map of that digest, forgets every map with it, and is
   * counted. A server that listed the digest keeps one of the two contents at most, so using either
   * could make it decode one map's message with the other's classes.
   */
  void confirm(MethodState st, RequestMap request, TypeMap reply) {
    synchronized (methods) {
      if (request != null && reply != null && request.map.hex.equals(reply.hex)
          && !Arrays.equals(request.map.canonical, reply.canonical)) {
        collided(reply.hex);
        return;
      }
      if (request != null && collides(st, request.map)) { collided(request.map.hex); request = null; }
      if (reply != null && collides(st, reply)) { collided(reply.hex); reply = null; }
      synchronized (st) {
        if (request != null) st.requestMap = request;
        if (reply != null) st.replyMap = reply;
      }
    }
    if (request != null) requestMapsConfirmed.incrementAndGet();
    if (reply != null) replyMapsConfirmed.incrementAndGet();
  }

  /** Whether another content than m's is confirmed under m's digest (checked when m is new to st). */
  private boolean collides(MethodState st, TypeMap m) {
    synchronized (st) {
      if (sameContent(mapOf(st.requestMap), m) || sameContent(st.replyMap, m)) return false;
    }
    for (MethodState o : methods.values()) {
      synchronized (o) {
        if (differentContent(mapOf(o.requestMap), m) || differentContent(o.replyMap, m)) return true;
      }
    }
    return false;
  }

  private static TypeMap mapOf(RequestMap r) { return r == null ? null : r.map; }

  private static boolean sameContent(TypeMap a, TypeMap b) {
    return a != null && a.hex.equals(b.hex) && Arrays.equals(a.canonical, b.canonical);
  }

  private static boolean differentContent(TypeMap a, TypeMap b) {
    return a != null && a.hex.equals(b.hex) && !Arrays.equals(a.canonical, b.canonical);
  }

  /** Counts a collision on digest hex and forgets every map with it. */
  private void collided(String hex) {
    collisions.incrementAndGet();
    for (MethodState o : methods.values()) {
      synchronized (o) {
        if (o.requestMap != null && o.requestMap.map.hex.equals(hex)) o.requestMap = null;
        if (o.replyMap != null && o.replyMap.hex.equals(hex)) o.replyMap = null;
      }
    }
  }

  /** A calling thread's request buffer and output, reused call after call (restart resets it). */
  static final class Work {
    final Negotiation.Buffer buffer = new Negotiation.Buffer(1024);
    final Negotiation.RecordingOutput out = new Negotiation.RecordingOutput(buffer);
    final PlannedInput.Slot input = new PlannedInput.Slot();
    boolean busy;

    /** The output, restarted into the emptied buffer. */
    Negotiation.RecordingOutput restart(com.caucho.hessian.io.SerializerFactory factory) {
      buffer.reset();
      out.restart(buffer);
      out.setSerializerFactory(factory);
      return out;
    }
  }

  private final ThreadLocal<Work> work = ThreadLocal.withInitial(Work::new);

  /** This thread's Work, or a new one if a call of this thread is already using it. */
  private Work acquire() {
    Work w = work.get();
    if (w.busy) return new Work();
    w.busy = true;
    return w;
  }

  Response post(URL url, byte[] body, String replyMap) throws IOException {
    return post(url, body, body.length, replyMap, true);
  }

  /**
   * Posts the first length bytes of body, with Hessian-Type-Maps if offer (a referring call leaves
   * it off: its body is the offer, section 3).
   */
  Response post(URL url, byte[] body, int length, String replyMap, boolean offer) throws IOException {
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    c.setDoOutput(true);
    c.setRequestMethod("POST");
    if (getConnectTimeout() > 0) c.setConnectTimeout((int) getConnectTimeout());
    if (getReadTimeout() > 0) c.setReadTimeout((int) getReadTimeout());
    c.setRequestProperty("Content-Type", "x-application/hessian");
    if (offer) c.setRequestProperty(Negotiation.OFFER, Negotiation.VERSION);
    if (replyMap != null) c.setRequestProperty(Negotiation.REPLY_MAP, replyMap);
    // No setFixedLengthStreamingMode: the JDK then buffers the body and writes it with the headers
    // (as Caucho's proxy does), instead of a headers segment and a body segment that Nagle's
    // algorithm and the peer's delayed ACK hold back (about 1.5 ms per call on loopback).
    try (OutputStream os = c.getOutputStream()) {
      os.write(body, 0, length);
    }
    Response r = new Response();
    r.status = c.getResponseCode();
    InputStream is = r.status >= 400 ? c.getErrorStream() : c.getInputStream();
    r.body = is == null ? new byte[0] : readBody(is, c.getContentLengthLong());
    if (is != null) is.close();
    // one pass over the reply's header fields by index (getHeaderFields builds a new map of all
    // of them on every call); names are case-insensitive (com.sun.net.httpserver sends
    // "Hessian-type-map"), and Hessian-Type-Map may come more than once
    List<String> values = null;
    for (int i = 1;; i++) {
      String key = c.getHeaderFieldKey(i);
      if (key == null) break;
      if (key.equalsIgnoreCase(Negotiation.OFFER)) r.aware |= Negotiation.offers(c.getHeaderField(i));
      else if (key.equalsIgnoreCase(Negotiation.TYPE_MAP)) {
        if (values == null) values = new java.util.ArrayList<>(1);
        values.add(c.getHeaderField(i));
      }
    }
    r.typeMaps = Negotiation.digests(values);
    return r;
  }

  /**
   * A body of a known length read into an array of that size (readAllBytes reads into an 8 KiB
   * buffer and copies), else (chunked, or longer than said) all of it.
   */
  static byte[] readBody(InputStream is, long length) throws IOException {
    if (length < 0 || length > 64 << 20) return is.readAllBytes();
    byte[] b = new byte[(int) length];
    int n = is.readNBytes(b, 0, b.length);
    if (n < b.length) return Arrays.copyOf(b, n);
    return b;
  }

  class NegotiatingProxy extends HessianProxy {
    private final URL url;
    private final String endpoint;
    /** Per method, the key of its MethodState (endpoint#name), made once. */
    private final Map<Method, String> keys = new ConcurrentHashMap<>();

    NegotiatingProxy(URL url, HessianProxyFactory factory, Class<?> api) {
      super(url, factory, api);
      this.url = url;
      this.endpoint = endpoint(url);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class
          || method.getDeclaringClass() == com.caucho.hessian.io.HessianRemoteObject.class)
        return super.invoke(proxy, method, args);
      String name = isOverloadEnabled() ? mangleName(method) : method.getName();
      String key = keys.get(method);
      if (key == null) keys.put(method, key = endpoint + "#" + name);
      MethodState st = state(key);
      Work w = acquire();
      try {
        return call(method, args, name, st, w);
      } finally {
        w.busy = false;
      }
    }

    private Object call(Method method, Object[] args, String name, MethodState st, Work w) throws Throwable {
      CallRecord rec = new CallRecord();
      last.set(rec);
      calls.incrementAndGet();
      Support support = endpoints.getOrDefault(endpoint, Support.UNKNOWN);
      RequestMap reqMap;
      TypeMap replyMap;
      boolean plainNext;
      synchronized (st) {
        reqMap = st.requestMap;
        replyMap = st.replyMap;
        plainNext = st.plainNext;
        st.plainNext = false;
      }
      if (support != Support.AWARE) { reqMap = null; replyMap = null; }
      if (plainNext) reqMap = null;

      if (reqMap != null) {
        // the referring header written in place of H 02 00, straight into this thread's buffer
        Negotiation.RecordingOutput out = w.restart(getSerializerFactory());
        out.refer(reqMap.map, reqMap.classes);
        out.call(name, args);
        out.flush();
        if (!out.wroteOnly()) {
          // another Class under one of the map's names (another class loader's) was written as a
          // reference to the map's class: drop the body, send the call plain, never refer again
          classMismatches.incrementAndGet();
          synchronized (st) {
            st.mixedMaps.add(reqMap.map.hex);
            if (st.requestMap == reqMap) st.requestMap = null;
          }
        } else {
          if (out.classCount() > reqMap.map.size()) synchronized (st) { st.plainNext = true; }
          rec.referringRequest = true;
          rec.firstAttemptBytes = rec.requestBytes = w.buffer.size();
          referringRequests.incrementAndGet();
          Response r = post(url, w.buffer.array(), w.buffer.size(), replyMap == null ? null : replyMap.hex, false);
          if (r.status == 200 && refusesMap(r.body, reqMap.map.hex)) {
            // the UnknownTypeMap fault naming this call's digest (6.1): nothing ran
            unknownTypeMap.incrementAndGet();
            synchronized (st) { if (st.requestMap == reqMap) st.requestMap = null; }
          } else if (r.status >= 400 && r.status < 600 && cauchoRefusal(r.body)) {
            // a plain Caucho skeleton reached by mistake stopped at T, before the method: nothing ran
            fallbacks.incrementAndGet();
            endpoints.put(endpoint, Support.PLAIN);
            synchronized (st) { st.requestMap = null; st.replyMap = null; }
            replyMap = null;
          } else if (r.status == 200) {
            // a reply (with or without the extension's headers, which a hop may drop, and which a
            // server may leave off the answer to a referring call) or any other fault: the call's
            // result; the server took the referring call, so it speaks the extension
            r.aware = true;
            return reply(method, st, r, replyMap, rec, null, w);
          } else {
            // any other status, 5xx included: the call may have run, so it is the call's error
            throw connectionError(r);
          }
          resends.incrementAndGet();
          rec.resent = true;
          rec.referringRequest = false;
        }
      }

      Negotiation.RecordingOutput out = w.restart(getSerializerFactory());
      out.call(name, args);
      out.flush();
      byte[] body = w.buffer.toByteArray();
      rec.requestBytes = body.length;
      if (!rec.resent) rec.firstAttemptBytes = body.length;
      plainRequests.incrementAndGet();
      boolean offerReplyMap = replyMap != null && endpoints.getOrDefault(endpoint, Support.UNKNOWN) == Support.AWARE;
      Response r = post(url, body, offerReplyMap ? replyMap.hex : null);
      if (r.status != 200) throw connectionError(r);
      RequestMap listed = null;
      if (r.aware) {
        endpoints.put(endpoint, Support.AWARE);
        TypeMap m = listedMap(body, r);
        Class<?>[] classes = m == null ? null : out.classesOf(m);
        boolean mixed;
        synchronized (st) { mixed = m != null && st.mixedMaps.contains(m.hex); }
        if (classes != null && !mixed) listed = new RequestMap(m, classes);
      } else {
        endpoints.put(endpoint, Support.PLAIN);
        synchronized (st) { st.requestMap = null; st.replyMap = null; }
      }
      return reply(method, st, r, offerReplyMap ? replyMap : null, rec, listed, w);
    }

    /** What Caucho's proxy throws for a status other than 200. */
    private HessianConnectionException connectionError(Response r) {
      return new HessianConnectionException(r.status + ": " + new String(r.body, StandardCharsets.UTF_8));
    }

    /**
     * Decodes a reply (plain or referring), confirming the request map {@code listed} (of this
     * exchange's plain call, when the server listed it) and a reply map the server listed.
     */
    private Object reply(Method method, MethodState st, Response r, TypeMap offered, CallRecord rec, RequestMap listed,
        Work w) throws Throwable {
      byte[] b = r.body;
      rec.replyBytes = b.length;
      rec.typeMaps = r.typeMaps;
      if (b.length < 3 || b[0] != 'H' || b[1] != 2) throw new HessianProtocolException("expected Hessian 2 reply, got " + b.length + " bytes");
      Hessian2Input in;
      PlannedInput planned = null;
      TypeMap replyListed = null;
      if (b[2] == 1) {
        if (b.length < 22 || b[3] != 'T' || b[4] != 0x30) throw new HessianProtocolException("malformed referring reply");
        if (offered == null || !Arrays.equals(b, 5, 21, offered.digest, 0, 16))
          throw new HessianProtocolException("referring reply for map " + TypeMap.hex(b, 5, 16)
              + ", which this client did not offer");
        referringReplies.incrementAndGet();
        rec.referringReply = true;
        // read where it stands (R|F value), the map's classes pre-defined from its plan
        planned = w.input.reader(getSerializerFactory(), b, 21, b.length - 21, offered);
        in = planned;
      } else if (b[2] == 0) {
        plainReplies.incrementAndGet();
        in = new Hessian2Input(new ByteArrayInputStream(b, 3, b.length - 3));
        in.setSerializerFactory(getSerializerFactory());
        replyListed = listedMap(b, r);
      } else {
        throw new HessianProtocolException("unknown Hessian 2 minor version " + b[2]);
      }
      if (listed != null || replyListed != null) confirm(st, listed, replyListed);
      try {
        Object value = in.readReply(method.getReturnType());
        if (planned != null) planned.done();
        return value;
      } catch (HessianProtocolException e) {
        throw new HessianRuntimeException(e);
      }
    }
  }
}
