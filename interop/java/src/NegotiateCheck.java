import com.squarespace.hopper.types.Order;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The negotiating Java client (NegotiatingProxyFactory) making W2 calls, self-checking every reply.
 * Usage: NegotiateCheck digest | NegotiateCheck bytes | NegotiateCheck MODE BASE_URL CALLS, MODE one of
 *   w2         CALLS exchange(request) calls to BASE_URL/bench
 *   restart    CALLS/2 calls, then prints "PAUSE" and waits for a line on stdin, then CALLS/2 more
 *   alternate  CALLS times exchange(request) then getItems(10) (two methods, two maps)
 *   collision  (no CALLS) both peers under -Dhessian.typemap.testDigestBytes=0: a digest
 *              collision is refused, never decoded with the other map's classes (see collision);
 *              prints "PAUSE" between its two phases, where the test restarts the server
 *   gateway    (no CALLS) one exchange (plain, establishing the map), prints "READY" and waits for
 *              a line on stdin, then one more exchange (referring), whose failure is an outcome, not
 *              a check failure: the summary line starts "summary outcome=ok|error exception=CLASS"
 *              (exception=- when it answered) and a last line "message=…" holds the exception's
 *              message on one line (empty when it answered)
 * Prints "call i req=… reply=…" for the first calls, then a "summary …" line with the counters and
 * the request/reply sizes seen ("578x1,228x999"); exits 1 if any reply was wrong.
 */
public class NegotiateCheck {
  static int ok = 0, bad = 0;
  /** Print every call's line, not only the first ones and the resent ones. */
  static boolean verbose = false;
  static final Map<Integer, Integer> reqSizes = new TreeMap<>(), replySizes = new TreeMap<>();

  static String sizes(Map<Integer, Integer> m) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<Integer, Integer> e : m.entrySet())
      sb.append(sb.length() > 0 ? "," : "").append(e.getKey()).append('x').append(e.getValue());
    return sb.toString();
  }

  static void record(NegotiatingProxyFactory f, int i, String what, boolean good) {
    NegotiatingProxyFactory.CallRecord r = f.lastCall();
    if (good) ok++;
    else { bad++; System.out.println("FAIL call " + i + " " + what); }
    if (what.equals("exchange")) {
      reqSizes.merge(r.requestBytes, 1, Integer::sum);
      replySizes.merge(r.replyBytes, 1, Integer::sum);
    }
    if (i < 3 || r.resent || verbose)
      System.out.println("call " + i + " " + what + " req=" + r.requestBytes + " first=" + r.firstAttemptBytes + " reply="
          + r.replyBytes + " referring_request=" + r.referringRequest + " referring_reply=" + r.referringReply
          + " resent=" + r.resent + " listed=" + (r.typeMaps.isEmpty() ? "-" : String.join(",", r.typeMaps)));
  }

  /** Counts a failed expectation about call i. */
  static void expect(int i, boolean good, String what) {
    if (!good) {
      bad++;
      System.out.println("FAIL call " + i + ": expected " + what);
    }
  }

  /** Prints "PAUSE" and waits for a line on stdin. */
  static void pause() throws java.io.IOException {
    System.out.println("PAUSE");
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in)).readLine();
  }

  static void exchange(NegotiatingProxyFactory f, RpcBenchService s, int i) {
    Order got;
    try {
      got = s.exchange(Workloads.request());
    } catch (Throwable t) {
      bad++;
      System.out.println("FAIL call " + i + " exchange threw " + RpcJavaClient.unwrap(t));
      return;
    }
    record(f, i, "exchange", Workloads.reply().equals(got));
  }

  static void items(NegotiatingProxyFactory f, RpcBenchService s, int i) {
    List<?> got;
    try {
      got = s.getItems(10);
    } catch (Throwable t) {
      bad++;
      System.out.println("FAIL call " + i + " getItems threw " + RpcJavaClient.unwrap(t));
      return;
    }
    record(f, i, "getItems", Workloads.items(10).equals(got));
  }

  static void same(NegotiatingProxyFactory f, RpcRefsService refs, int i) {
    boolean got;
    try {
      got = refs.same(new com.squarespace.hopper.types.Money(1000, "EUR"), new com.squarespace.hopper.types.Money(1000, "EUR"));
    } catch (Throwable t) {
      bad++;
      System.out.println("FAIL call " + i + " same threw " + RpcJavaClient.unwrap(t));
      return;
    }
    record(f, i, "same", got);
  }

  /**
   * A digest collision is refused, never decoded with the other map's classes. Both peers run
   * with every map's digest 0 (-Dhessian.typemap.testDigestBytes=0). Phase 1: exchange
   * establishes the W2 map under digest 0; same(m, m) at /refs (a one-class Money map, digest 0
   * too) is answered plain, twice, and the server lists no map for it; exchange then refers to
   * digest 0 and is answered right, decoded with the W2 map. "PAUSE" (the test restarts the
   * server). Phase 2: the new server lists getItems' reply map (Item) under digest 0: the client
   * counts a collision, keeps neither and forgets the W2 map, so the next exchange is sent plain,
   * not as a reference the new server would decode with the Item map.
   */
  static void collision(NegotiatingProxyFactory f, RpcBenchService s, RpcRefsService refs) throws Exception {
    if (TypeMap.DIGEST_BYTES != 0) throw new IllegalStateException("collision needs -Dhessian.typemap.testDigestBytes=0");
    String zero = TypeMap.hex(new byte[16]);
    verbose = true;
    exchange(f, s, 0);
    expect(0, f.lastCall().typeMaps.equals(List.of(zero)), "the W2 map listed under digest 0");
    for (int i = 1; i <= 2; i++) {
      same(f, refs, i);
      expect(i, !f.lastCall().referringRequest && f.lastCall().typeMaps.isEmpty(), "a plain call, no map listed");
    }
    exchange(f, s, 3);
    expect(3, f.lastCall().referringRequest && !f.lastCall().resent, "a referring call to the W2 map");
    pause();
    items(f, s, 4);
    expect(4, f.collisions.get() == 1, "the Item reply map under digest 0 counted as a collision");
    exchange(f, s, 5);
    expect(5, !f.lastCall().referringRequest, "a plain call: the W2 map was forgotten");
  }

  /**
   * The gateway mode's second call: its outcome (answered, or the exception it threw) for the
   * summary line, and the exception's message on one line; a wrong answer is a check failure.
   */
  static String[] gatewayCall(NegotiatingProxyFactory f, RpcBenchService s) {
    Order got;
    try {
      got = s.exchange(Workloads.request());
    } catch (Throwable t) {
      t = RpcJavaClient.unwrap(t);
      String message = String.valueOf(t.getMessage()).replaceAll("[\\r\\n]+", " ");
      return new String[] {"outcome=error exception=" + t.getClass().getName() + " ", message};
    }
    record(f, 1, "exchange", Workloads.reply().equals(got));
    return new String[] {"outcome=ok exception=- ", ""};
  }

  /** The W2 request as Caucho writes the call, and its map. */
  static void digest() throws Exception {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    com.caucho.hessian.io.Hessian2Output out = new com.caucho.hessian.io.Hessian2Output(bo);
    out.call("exchange", new Object[] {Workloads.request()});
    out.flush();
    TypeMap m = TypeMap.ofMessage(bo.toByteArray());
    System.out.println("request plain=" + bo.size() + " classes=" + m.size() + " canonical=" + m.canonical.length
        + " digest=" + m.hex);
    bo.reset();
    out = new com.caucho.hessian.io.Hessian2Output(bo);
    Negotiation.seed(out, m);
    out.call("exchange", new Object[] {Workloads.request()});
    out.flush();
    System.out.println("request referring=" + m.refer(bo.toByteArray()).length + " inline_classes="
        + (Negotiation.classCount(out) - m.size()));
    bo.reset();
    out = new com.caucho.hessian.io.Hessian2Output(bo);
    out.writeReply(Workloads.reply());
    out.flush();
    TypeMap r = TypeMap.ofMessage(bo.toByteArray());
    System.out.println("reply plain=" + bo.size() + " classes=" + r.size() + " canonical=" + r.canonical.length
        + " digest=" + r.hex);
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder(b.length * 2);
    for (byte x : b) sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
    return sb.toString();
  }

  /** A call as the proxy writes it: plain, or referring to map (seeded output, then refer). */
  static byte[] call(TypeMap map, String method, Object... args) throws Exception {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    com.caucho.hessian.io.Hessian2Output out = new com.caucho.hessian.io.Hessian2Output(bo);
    if (map != null) Negotiation.seed(out, map);
    out.call(method, args);
    out.flush();
    return map == null ? bo.toByteArray() : map.refer(bo.toByteArray());
  }

  /** A reply as NegotiatingServer writes it: plain, or referring to map. */
  static byte[] reply(TypeMap map, Object value) throws Exception {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    com.caucho.hessian.io.Hessian2Output out = new com.caucho.hessian.io.Hessian2Output(bo);
    if (map != null) Negotiation.seed(out, map);
    out.writeReply(value);
    out.flush();
    return map == null ? bo.toByteArray() : map.refer(bo.toByteArray());
  }

  /**
   * The W2 messages as hex lines "name=hex": the plain and referring exchange(request) calls,
   * the plain and referring replies, and a referring call whose second argument's class
   * (Money, alone) is not in the map (a one-class map of Address): defined inline as class 1.
   */
  static void bytes() throws Exception {
    byte[] plainCall = call(null, "exchange", Workloads.request());
    TypeMap req = TypeMap.ofMessage(plainCall);
    System.out.println("plain_call=" + hex(plainCall));
    System.out.println("referring_call=" + hex(call(req, "exchange", Workloads.request())));
    byte[] plainReply = reply(null, Workloads.reply());
    TypeMap rep = TypeMap.ofMessage(plainReply);
    System.out.println("plain_reply=" + hex(plainReply));
    System.out.println("referring_reply=" + hex(reply(rep, Workloads.reply())));
    Order o = Workloads.request();
    byte[] addrCall = call(null, "pay", o.customer.address);
    TypeMap addr = TypeMap.ofMessage(addrCall);
    System.out.println("inline_map_call=" + hex(addrCall));
    System.out.println("inline_call=" + hex(call(addr, "pay", o.customer.address, o.total)));
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("digest")) { digest(); return; }
    if (args[0].equals("bytes")) { bytes(); return; }
    String mode = args[0], base = args[1];
    int calls = args.length > 2 ? Integer.parseInt(args[2]) : 0;
    NegotiatingProxyFactory f = new NegotiatingProxyFactory();
    f.setReadTimeout(60000);
    f.setConnectTimeout(10000);
    RpcBenchService s = (RpcBenchService) f.create(RpcBenchService.class, base + "/bench");
    String[] outcome = {"", null};
    switch (mode) {
      case "w2":
        for (int i = 0; i < calls; i++) exchange(f, s, i);
        break;
      case "restart": {
        int i = 0;
        for (; i < calls / 2; i++) exchange(f, s, i);
        pause();
        for (; i < calls; i++) exchange(f, s, i);
        break;
      }
      case "collision":
        collision(f, s, (RpcRefsService) f.create(RpcRefsService.class, base + "/refs"));
        break;
      case "gateway":
        exchange(f, s, 0);
        System.out.println("READY");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in)).readLine();
        outcome = gatewayCall(f, s);
        break;
      case "alternate":
        for (int i = 0; i < calls; i++) {
          exchange(f, s, 2 * i);
          items(f, s, 2 * i + 1);
        }
        break;
      default:
        throw new IllegalArgumentException("unknown mode " + mode);
    }
    System.out.println("summary " + outcome[0] + "ok=" + ok + " failed=" + bad + " " + f.counters() + " support="
        + f.support(new java.net.URL(base + "/bench")) + " exchange_req_sizes=" + sizes(reqSizes)
        + " exchange_reply_sizes=" + sizes(replySizes));
    if (outcome[1] != null) System.out.println("message=" + outcome[1]);
    System.exit(bad == 0 ? 0 : 1);
  }
}
