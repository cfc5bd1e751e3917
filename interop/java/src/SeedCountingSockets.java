import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.net.Socket;
import java.rmi.server.RMIClientSocketFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The seed suite's count of the RMI row's bytes (crates/hessian-bench/src/seed/exp2.rs): an RMI
 * client socket factory whose sockets count every byte written to and read from them. An RMI stub
 * connects to the port its object was exported on, not to the registry's, so a relay in front of
 * the registry does not see the calls; instead SeedJavaServer exports a second instance of the
 * service with this factory (bound as "bench-counted"), whose stub carries it into the client's JVM,
 * and SeedJavaClient reports the counts ({@code bytes}). The timed calls use the plain stub. Counted
 * at the socket's streams, the figures are the bytes on the socket, as the relay counts them for the
 * other rows.
 */
public final class SeedCountingSockets implements RMIClientSocketFactory, Serializable {
  private static final long serialVersionUID = 1L;

  /** Bytes written by the client (client to server), in this JVM. */
  public static final AtomicLong UP = new AtomicLong();
  /** Bytes read by the client (server to client), in this JVM. */
  public static final AtomicLong DOWN = new AtomicLong();

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return new Counting(host, port);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SeedCountingSockets;
  }

  @Override
  public int hashCode() {
    return SeedCountingSockets.class.hashCode();
  }

  /** A socket whose streams count. */
  static final class Counting extends Socket {
    private InputStream in;
    private OutputStream out;

    Counting(String host, int port) throws IOException {
      super(host, port);
    }

    @Override
    public synchronized InputStream getInputStream() throws IOException {
      if (in == null) {
        in = new FilterInputStream(super.getInputStream()) {
          @Override
          public int read() throws IOException {
            int b = super.read();
            if (b >= 0) DOWN.incrementAndGet();
            return b;
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) DOWN.addAndGet(n);
            return n;
          }
        };
      }
      return in;
    }

    @Override
    public synchronized OutputStream getOutputStream() throws IOException {
      if (out == null) {
        OutputStream raw = super.getOutputStream();
        out = new FilterOutputStream(raw) {
          @Override
          public void write(int b) throws IOException {
            raw.write(b);
            UP.incrementAndGet();
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            raw.write(b, off, len);
            UP.addAndGet(len);
          }
        };
      }
      return out;
    }
  }
}
