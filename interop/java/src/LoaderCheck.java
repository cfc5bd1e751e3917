import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Two classes of one name from two class loaders, with different fields, do not mix in the
 * negotiating client's calls: a referring call pre-defines the map's classes by type name, so an
 * object of the other class must not be written as a reference to the map's class. Compiles two
 * variants of {@code LoaderPoint} (fields x, y and fields a, b, c) into two directories, loads each
 * with its own URLClassLoader and calls describe(Object) at BASE_URL/describe (a NegotiatingServer,
 * which decodes the unknown class as a map of its fields): x/y once plain and once referring, then
 * a/b/c, which must be sent plain and arrive with its own fields, then x/y and a/b/c again, plain.
 * Prints "call i …" lines and a "summary ok=… failed=… <counters>" line.
 *
 * Then the same for the server's replies: a NegotiatingServer in this JVM serves {@link Points}
 * at /points, whose point(loader) answers a LoaderPoint of the x/y or the a/b/c class. The reply
 * map of x/y is established by a plain reply (the server records LoaderPoint's x/y Class under it)
 * and used by a referring reply; then a/b/c is asked while the client offers the x/y reply map:
 * the server must not write the a/b/c object as a reference to the x/y class, but discard that
 * reply and write the same result plainly, without running the method again; and the same when
 * x/y is asked under the a/b/c map. Prints "reply i …" lines and a "server_summary ok=… failed=…
 * point_runs=… <client counters> | <server stats>" line. Exits 1 on any wrong answer, send, or
 * count. Usage: LoaderCheck BASE_URL
 */
public class LoaderCheck {
  static final String XY = "public class LoaderPoint implements java.io.Serializable { public int x; public int y; }";
  static final String ABC =
      "public class LoaderPoint implements java.io.Serializable { public String a; public String b; public String c; }";

  static int ok = 0, bad = 0;

  /** Served by the in-process NegotiatingServer at /points. */
  public interface Points {
    /** A LoaderPoint of the x/y class ("xy") or of the a/b/c class ("abc"), with fields set from n. */
    Object point(String loader, int n);
  }

  /** A class loader of the class compiled from source (a class LoaderPoint) in a fresh directory. */
  static ClassLoader compile(String source) throws Exception {
    Path dir = Files.createTempDirectory("loader-check");
    Path file = dir.resolve("LoaderPoint.java");
    Files.write(file, source.getBytes(StandardCharsets.UTF_8));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) throw new IllegalStateException("no system Java compiler (a JRE, not a JDK)");
    if (javac.run(null, null, null, "-d", dir.toString(), file.toString()) != 0)
      throw new IllegalStateException("javac failed on " + file);
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, LoaderCheck.class.getClassLoader());
  }

  /** A LoaderPoint of loader l with its public fields set, in declaration order, to values. */
  static Object point(ClassLoader l, Object... values) throws Exception {
    Class<?> c = l.loadClass("LoaderPoint");
    Object o = c.getDeclaredConstructor().newInstance();
    java.lang.reflect.Field[] fields = c.getFields();
    java.util.Arrays.sort(fields, java.util.Comparator.comparing(java.lang.reflect.Field::getName));
    for (int i = 0; i < values.length; i++) fields[i].set(o, values[i]);
    return o;
  }

  static void call(NegotiatingProxyFactory f, RpcDescribeService s, int i, Object arg, String want, boolean referring) {
    String got;
    try {
      got = s.describe(arg);
    } catch (Throwable t) {
      bad++;
      System.out.println("FAIL call " + i + " threw " + RpcJavaClient.unwrap(t));
      return;
    }
    NegotiatingProxyFactory.CallRecord r = f.lastCall();
    boolean good = want.equals(got) && r.referringRequest == referring && !r.resent;
    if (good) ok++;
    else bad++;
    System.out.println((good ? "" : "FAIL ") + "call " + i + " " + arg.getClass().getName() + "@"
        + Integer.toHexString(System.identityHashCode(arg.getClass().getClassLoader())) + " req=" + r.requestBytes
        + " referring_request=" + r.referringRequest + " got=" + got + (good ? "" : " want=" + want
        + " referring=" + referring));
  }

  public static void main(String[] args) throws Exception {
    ClassLoader xy = compile(XY), abc = compile(ABC);
    if (xy.loadClass("LoaderPoint") == abc.loadClass("LoaderPoint")) throw new IllegalStateException("one class");
    NegotiatingProxyFactory f = new NegotiatingProxyFactory();
    f.setReadTimeout(60000);
    f.setConnectTimeout(10000);
    RpcDescribeService s = (RpcDescribeService) f.create(RpcDescribeService.class, args[0] + "/describe");
    call(f, s, 0, point(xy, 1, 2), "{x=1, y=2}", false);
    call(f, s, 1, point(xy, 3, 4), "{x=3, y=4}", true);
    call(f, s, 2, point(abc, "p", "q", "r"), "{a=p, b=q, c=r}", false);
    call(f, s, 3, point(xy, 5, 6), "{x=5, y=6}", false);
    call(f, s, 4, point(abc, "s", "t", "u"), "{a=s, b=t, c=u}", false);
    System.out.println("summary ok=" + ok + " failed=" + bad + " " + f.counters());
    int clientBad = bad;
    ok = bad = 0;
    serverReplies(xy, abc);
    System.exit(clientBad == 0 && bad == 0 ? 0 : 1);
  }

  /** The server side: replies of two classes of one name (see the class comment). */
  static void serverReplies(ClassLoader xy, ClassLoader abc) throws Exception {
    java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
    Points impl = (loader, n) -> {
      runs.incrementAndGet();
      try {
        return loader.equals("xy") ? point(xy, n, n + 1) : point(abc, "a" + n, "b" + n, "c" + n);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    NegotiatingServer server = new NegotiatingServer(1024, 4L << 20);
    com.sun.net.httpserver.HttpServer http =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 16);
    server.mount(http, "/points", server.counted(impl, Points.class), Points.class);
    http.start();
    try {
      NegotiatingProxyFactory f = new NegotiatingProxyFactory();
      f.setReadTimeout(60000);
      f.setConnectTimeout(10000);
      Points p = (Points) f.create(Points.class, "http://127.0.0.1:" + http.getAddress().getPort() + "/points");
      // i, loader, whether the reply must be referring
      reply(f, p, 0, "xy", false); // plain: establishes the x/y reply map
      reply(f, p, 1, "xy", true); // referring, under the x/y map
      reply(f, p, 2, "abc", false); // the x/y map offered: written plain again, not referring
      reply(f, p, 3, "xy", false); // the a/b/c map offered (listed by 2): plain again
      reply(f, p, 4, "xy", true); // the x/y map (listed again by 3): referring
      String stats = server.stats();
      java.util.Map<String, String> st = new java.util.HashMap<>();
      for (String kv : stats.trim().split(" ")) st.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      // the method ran once per call, the discarded replies included
      boolean counts = runs.get() == 5 && st.get("executions").equals("5") && st.get("referring_replies").equals("2")
          && st.get("reply_class_mismatches").equals("2") && f.resends.get() == 0;
      if (!counts) {
        bad++;
        System.out.println("FAIL counts: point ran " + runs.get() + " times, server " + stats.trim());
      }
      System.out.println("server_summary ok=" + ok + " failed=" + bad + " point_runs=" + runs.get() + " "
          + f.counters() + " | " + stats.trim());
    } finally {
      http.stop(0);
    }
  }

  static void reply(NegotiatingProxyFactory f, Points p, int i, String loader, boolean referring) {
    String want = loader.equals("xy") ? "{x=" + i + ", y=" + (i + 1) + "}" : "{a=a" + i + ", b=b" + i + ", c=c" + i + "}";
    String got;
    try {
      // this JVM's own class loader has no LoaderPoint: the client decodes it as a map of its fields
      Object o = p.point(loader, i);
      got = o instanceof java.util.Map ? new java.util.TreeMap<Object, Object>((java.util.Map<?, ?>) o).toString()
          : String.valueOf(o);
    } catch (Throwable t) {
      bad++;
      System.out.println("FAIL reply " + i + " threw " + RpcJavaClient.unwrap(t));
      return;
    }
    NegotiatingProxyFactory.CallRecord r = f.lastCall();
    boolean good = want.equals(got) && r.referringReply == referring && !r.resent;
    if (good) ok++;
    else bad++;
    System.out.println((good ? "" : "FAIL ") + "reply " + i + " " + loader + " reply_bytes=" + r.replyBytes
        + " referring_reply=" + r.referringReply + " got=" + got + (good ? "" : " want=" + want
        + " referring=" + referring));
  }
}
