import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import com.caucho.hessian.io.SerializerFactory;
import com.caucho.hessian.server.HessianSkeleton;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Caucho's HessianSkeleton behind com.sun.net.httpserver with the type negotiation extension
 * (docs/negotiation.md), serving RpcBenchServiceImpl at /bench, RpcRefsServiceImpl at /refs and
 * RpcDescribeServiceImpl at /describe.
 * Learns maps from plain calls that offer the extension, answers referring calls (read by
 * Caucho's Hessian2Input where they stand, the map's classes pre-defined from a plan resolved
 * once per map: PlannedInput) or UnknownTypeMap
 * before decoding anything, and answers referring replies for a Hessian-Reply-Map it has. A map
 * whose digest the cache holds with another content (a collision, forced in tests by
 * TypeMap.DIGEST_BYTES) is neither kept nor listed. GET /stats prints its counters. Prints
 * "PORT n" and serves until killed. With -Dseed.bind=ADDR it listens on ADDR (default 127.0.0.1);
 * with -Dseed.lifeline=true it exits when its stdin closes (`seed serve-all`).
 * Usage: NegotiatingServer [port] [max maps] [max canonical bytes]
 */
public class NegotiatingServer {
  /**
   * Maps by digest; the value, for a map this server wrote itself (a reply map), is the Class it
   * wrote under each of the map's class numbers (null for a map only learned from calls).
   */
  final Negotiation.Cache<Class<?>[]> cache;
  final SerializerFactory serializers = new SerializerFactory();
  final AtomicLong executions = new AtomicLong(), plainCalls = new AtomicLong(), referringCalls = new AtomicLong(),
      unknown = new AtomicLong(), learned = new AtomicLong(), referringReplies = new AtomicLong(),
      plainReplies = new AtomicLong(), errors = new AtomicLong(), replyClassMismatches = new AtomicLong();

  NegotiatingServer(int maxMaps, long maxBytes) {
    cache = new Negotiation.Cache<>(maxMaps, maxBytes);
  }

  /** impl behind a proxy that counts every execution of a service method. */
  @SuppressWarnings("unchecked")
  <T> T counted(T impl, Class<T> api) {
    return (T) Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api}, (p, m, a) -> {
      if (m.getDeclaringClass() == Object.class) return m.invoke(impl, a);
      executions.incrementAndGet();
      try {
        return m.invoke(impl, a);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    });
  }

  static final class Answer {
    int status = 200;
    /** The body: length bytes of body (possibly a buffer of this thread's, reused by its next call). */
    byte[] body;
    int length;
    final java.util.List<String[]> headers = new java.util.ArrayList<>(2);
    void header(String k, String v) { headers.add(new String[] {k, v}); }
    void body(byte[] b) { body(b, b.length); }
    void body(byte[] b, int n) { body = b; length = n; }
  }

  /** A handler thread's reply buffer and output, reused call after call (restart resets it). */
  static final class Work {
    final Negotiation.Buffer buffer = new Negotiation.Buffer(1024);
    final Negotiation.RecordingOutput out = new Negotiation.RecordingOutput(buffer);
    final PlannedInput.Slot input = new PlannedInput.Slot();
  }

  private final ThreadLocal<Work> work = ThreadLocal.withInitial(Work::new);

  /** Answers one POST body (headers: the offer and the reply map), as the handler sends it. */
  Answer handle(HessianSkeleton skeleton, byte[] body, String offerHeader, String replyMapHeader) throws Exception {
    Answer a = new Answer();
    boolean offer = Negotiation.offers(offerHeader);
    boolean h2 = body.length >= 3 && body[0] == 'H' && body[1] == 2;
    if (h2 && body[2] == 1) {
      // a referring call is an offer by its body, with or without the header; the answer to one
      // that ran carries Hessian-Type-Maps only if the call did (section 3: the client of a
      // referring call knows the server speaks the extension and decides nothing on it; the
      // clients of this project leave it off referring calls, so one header less to write and to
      // parse); the refusal always carries it
      // referring call: H 02 01 T 30 <digest>; nothing else is looked at before the map is found
      if (body.length < 21 || body[3] != 'T' || body[4] != 0x30) throw new IOException("malformed referring call");
      String hex = TypeMap.hex(body, 5, 16);
      TypeMap map = cache.get(hex);
      if (map == null) {
        unknown.incrementAndGet();
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bo);
        // with no detail, Caucho writes exactly the 121 bytes of 6.1: H 02 00 F H code message Z
        out.writeFault("UnknownTypeMap", "unknown type map " + hex + ": resend the call as plain Hessian 2", null);
        out.flush();
        a.header(Negotiation.OFFER, Negotiation.VERSION);
        a.header(Negotiation.UNKNOWN, hex);
        a.body(bo.toByteArray());
        return a;
      }
      referringCalls.incrementAndGet();
      // read where it stands, the map's classes pre-defined from its plan (resolved once per map)
      PlannedInput in = work.get().input.reader(serializers, body, 21, body.length - 21, map);
      if (offer) a.header(Negotiation.OFFER, Negotiation.VERSION);
      invoke(skeleton, in, replyMapHeader, a, null);
      in.done();
      return a;
    }
    if (offer) a.header(Negotiation.OFFER, Negotiation.VERSION);
    if (offer && h2 && body[2] == 0) {
      plainCalls.incrementAndGet();
      String requestDigest = null;
      try {
        TypeMap m = TypeMap.ofMessage(body);
        if (m.withinLimits()) {
          if (cache.put(m, null)) {
            learned.incrementAndGet();
            requestDigest = m.hex;
          } else if (m.hex.equals(TypeMap.lowerHexOrNull(replyMapHeader))) {
            // a collision: the digest names two contents in this exchange, so it names no reply map
            replyMapHeader = null;
          }
        }
      } catch (IOException ignored) {
        // not a message the scanner understands: serve it plain, learn nothing
      }
      Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(body, 3, body.length - 3));
      in.setSerializerFactory(serializers);
      invoke(skeleton, in, replyMapHeader, a, requestDigest);
      return a;
    }
    // a plain client (or Hessian 1, or hybrid): Caucho's skeleton unchanged, no extension
    plainCalls.incrementAndGet();
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    skeleton.invoke(new ByteArrayInputStream(body), bo, serializers);
    a.body(bo.toByteArray());
    return a;
  }

  /**
   * Runs a Hessian 2 call through the skeleton, `in` positioned at its `C` (and, for a referring
   * call, seeded with its map); a referring reply if possible, into a.
   */
  void invoke(HessianSkeleton skeleton, Hessian2Input in, String replyMapHeader, Answer a, String requestDigest)
      throws Exception {
    in.readCall();
    String want = TypeMap.lowerHexOrNull(replyMapHeader);
    TypeMap replyMap = null;
    Class<?>[] replyClasses = null;
    // only a map this server wrote itself: its serializers write exactly those fields
    if (want != null) {
      replyClasses = cache.value(want);
      if (replyClasses != null) replyMap = cache.get(want);
      if (replyMap == null) replyClasses = null;
    }
    Work w = work.get();
    Negotiation.Buffer bo = w.buffer;
    bo.reset();
    Negotiation.RecordingOutput out = w.out;
    out.restart(bo);
    out.setSerializerFactory(serializers);
    // a referring reply begins with the map's header, written in place of H 02 00
    if (replyMap != null) out.refer(replyMap, replyClasses);
    skeleton.invoke(in, out);
    out.flush();
    if (replyMap != null) {
      if (out.wroteOnly()) {
        referringReplies.incrementAndGet();
        if (requestDigest != null) a.header(Negotiation.TYPE_MAP, requestDigest);
        a.body(bo.array(), bo.size());
        return;
      }
      // an object of another Class (another class loader's class of one of the map's names) was
      // written as a reference to the map's class: drop those bytes and write the same result
      // (or fault) again, plainly; the method has run and does not run again
      replyClassMismatches.incrementAndGet();
      bo.reset();
      Negotiation.RecordingOutput plain = new Negotiation.RecordingOutput(bo);
      plain.setSerializerFactory(serializers);
      out.replay(plain);
      plain.flush();
      out = plain;
    }
    byte[] reply = bo.toByteArray();
    plainReplies.incrementAndGet();
    String replyDigest = null;
    try {
      TypeMap m = TypeMap.ofMessage(reply);
      Class<?>[] classes = out.classesOf(m);
      // listed only with the classes written under it: the first classes written under a map are
      // kept, and a map written with others is not listed (its referring replies check them)
      if (classes != null && m.withinLimits() && cache.put(m, null)
          && Negotiation.sameClasses(cache.valueIfAbsent(m.hex, classes), classes))
        replyDigest = m.hex;
    } catch (IOException ignored) {
      // keep no reply map
    }
    StringBuilder maps = new StringBuilder();
    if (requestDigest != null) maps.append(requestDigest);
    if (replyDigest != null && !replyDigest.equals(requestDigest))
      maps.append(maps.length() > 0 ? ", " : "").append(replyDigest);
    if (maps.length() > 0) a.header(Negotiation.TYPE_MAP, maps.toString());
    a.body(reply);
  }

  String stats() {
    return "executions=" + executions + " plain_calls=" + plainCalls + " referring_calls=" + referringCalls
        + " unknown_type_map=" + unknown + " learned=" + learned + " referring_replies=" + referringReplies
        + " plain_replies=" + plainReplies + " reply_class_mismatches=" + replyClassMismatches + " errors=" + errors + " maps=" + cache.size() + " evictions="
        + cache.evictions() + " collisions=" + cache.collisions() + "\n";
  }

  void mount(HttpServer server, String path, Object impl, Class<?> api) {
    HessianSkeleton skeleton = new HessianSkeleton(impl, api);
    server.createContext(path, (HttpExchange ex) -> {
      try {
        if (!"POST".equals(ex.getRequestMethod())) {
          ex.sendResponseHeaders(405, -1);
          return;
        }
        byte[] body = readBody(ex);
        Answer a;
        try {
          a = handle(skeleton, body, ex.getRequestHeaders().getFirst(Negotiation.OFFER),
              ex.getRequestHeaders().getFirst(Negotiation.REPLY_MAP));
        } catch (Throwable e) {
          errors.incrementAndGet();
          byte[] msg = ("server error: " + e).getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(500, msg.length);
          ex.getResponseBody().write(msg);
          return;
        }
        ex.getResponseHeaders().set("Content-Type", "x-application/hessian");
        for (String[] h : a.headers) ex.getResponseHeaders().add(h[0], h[1]);
        ex.sendResponseHeaders(a.status, a.length);
        ex.getResponseBody().write(a.body, 0, a.length);
      } finally {
        ex.close();
      }
    });
  }

  /**
   * The request body: Content-Length bytes read into an array of that size (readAllBytes reads
   * into an 8 KiB buffer and copies), else (chunked) all of it.
   */
  static byte[] readBody(HttpExchange ex) throws IOException {
    String cl = ex.getRequestHeaders().getFirst("Content-Length");
    java.io.InputStream is = ex.getRequestBody();
    int n = -1;
    if (cl != null) {
      try {
        n = Integer.parseInt(cl.trim());
      } catch (NumberFormatException e) {
        n = -1;
      }
    }
    if (n < 0 || n > 64 << 20) return is.readAllBytes();
    byte[] b = new byte[n];
    if (is.readNBytes(b, 0, n) != n) throw new IOException("request body shorter than its Content-Length");
    return b;
  }

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    String bind = System.getProperty("seed.bind", "127.0.0.1");
    int maxMaps = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
    long maxBytes = args.length > 2 ? Long.parseLong(args[2]) : 4L << 20;
    NegotiatingServer n = new NegotiatingServer(maxMaps, maxBytes);
    HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 256);
    server.setExecutor(Executors.newFixedThreadPool(8));
    n.mount(server, "/bench", n.counted(new RpcBenchServiceImpl(), RpcBenchService.class), RpcBenchService.class);
    n.mount(server, "/refs", n.counted(new RpcRefsServiceImpl(), RpcRefsService.class), RpcRefsService.class);
    n.mount(server, "/describe", n.counted(new RpcDescribeServiceImpl(), RpcDescribeService.class),
        RpcDescribeService.class);
    server.createContext("/stats", (HttpExchange ex) -> {
      byte[] b = n.stats().getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, b.length);
      ex.getResponseBody().write(b);
      ex.close();
    });
    server.start();
    System.out.println("PORT " + server.getAddress().getPort());
    System.out.flush();
    if (Boolean.getBoolean("seed.lifeline")) {
      // `seed serve-all` holds stdin open while it needs the server: exit when it closes
      while (System.in.read() >= 0) {
        // nothing to read
      }
      System.exit(0);
    }
  }
}
