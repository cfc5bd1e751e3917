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
 * Prints "call i …" lines and a "summary ok=… failed=… <counters>" line; exits 1 on a wrong answer
 * or send. Usage: LoaderCheck BASE_URL
 */
public class LoaderCheck {
  static final String XY = "public class LoaderPoint implements java.io.Serializable { public int x; public int y; }";
  static final String ABC =
      "public class LoaderPoint implements java.io.Serializable { public String a; public String b; public String c; }";

  static int ok = 0, bad = 0;

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
    System.exit(bad == 0 ? 0 : 1);
  }
}
