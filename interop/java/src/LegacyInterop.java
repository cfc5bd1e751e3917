import com.caucho.burlap.io.BurlapInput;
import com.caucho.burlap.io.BurlapOutput;
import com.caucho.hessian.io.AbstractHessianInput;
import com.caucho.hessian.io.AbstractHessianOutput;
import com.caucho.hessian.io.HessianInput;
import com.caucho.hessian.io.HessianOutput;
import com.caucho.hessian.io.HessianServiceException;
import java.io.*;
import java.util.*;

/**
 * Hessian 1 / Burlap interop driver, on framed stdin/stdout (per entry: u16 name length, name,
 * u32 payload length, payload).
 * <ul>
 * <li>{@code write h1|burlap|h2}: every catalogue value (and for h1/burlap every envelope case) as
 * HessianOutput/BurlapOutput/Hessian2Output write it;</li>
 * <li>{@code reencode h1|burlap}: decodes each payload with HessianInput/BurlapInput (values, or
 * envelopes for names starting with {@code call:} / {@code reply:}) and writes it again;</li>
 * <li>{@code h2catalogue h1|burlap}: every {@link H2Catalogue} case in Hessian 1 or Burlap;</li>
 * <li>{@code workload h1|burlap|h2 NAME N}: one W1-W3 workload value, unframed;</li>
 * <li>{@code doubles N SEED}: "hexbits Double.toString" lines for edge-case and random doubles.</li>
 * </ul>
 */
public final class LegacyInterop {
  private LegacyInterop() {}

  static AbstractHessianOutput output(String fmt, OutputStream os) {
    switch (fmt) {
      case "h1": return new HessianOutput(os);
      case "h2": return new com.caucho.hessian.io.Hessian2Output(os);
      default: return new BurlapOutput(os);
    }
  }

  static AbstractHessianInput input(String fmt, InputStream is) {
    return fmt.equals("h1") ? new HessianInput(is) : new BurlapInput(is);
  }

  static void writeRemote(AbstractHessianOutput out, String type, String url) throws IOException {
    if (out instanceof HessianOutput) ((HessianOutput) out).writeRemote(type, url);
    else if (out instanceof BurlapOutput) ((BurlapOutput) out).writeRemote(type, url);
    else out.writeObject(new com.caucho.hessian.io.HessianRemote(type, url));
  }

  /**
   * Writes a value; remotes (as the catalogue holds them, or as HessianInput/BurlapInput read them)
   * with writeRemote, since Java's serializers write a HessianRemote as a plain object and cannot
   * write a BurlapRemote at all.
   */
  static void writeValue(AbstractHessianOutput out, Object v) throws IOException {
    if (v instanceof LegacyCatalogue.RemoteCase) {
      LegacyCatalogue.RemoteCase r = (LegacyCatalogue.RemoteCase) v;
      writeRemote(out, r.type, r.url);
    } else if (v instanceof com.caucho.hessian.io.HessianRemote) {
      com.caucho.hessian.io.HessianRemote r = (com.caucho.hessian.io.HessianRemote) v;
      writeRemote(out, r.getType(), r.getURL());
    } else if (v instanceof com.caucho.burlap.io.BurlapRemote) {
      com.caucho.burlap.io.BurlapRemote r = (com.caucho.burlap.io.BurlapRemote) v;
      writeRemote(out, r.getType(), r.getURL());
    } else {
      out.writeObject(v);
    }
  }

  static void frame(DataOutputStream o, String name, byte[] payload) throws IOException {
    byte[] n = name.getBytes("UTF-8");
    o.writeShort(n.length);
    o.write(n);
    o.writeInt(payload.length);
    o.write(payload);
  }

  static void fault(AbstractHessianOutput out, String fmt, String code, String msg, Object detail) throws IOException {
    if (fmt.equals("h1")) {
      out.writeFault(code, msg, detail);
    } else {
      out.startReply();
      out.writeFault(code, msg, detail);
      out.completeReply();
    }
  }

  static byte[] envelope(String fmt, String name) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    AbstractHessianOutput out = output(fmt, bos);
    switch (name) {
      case "call:add2":
        out.call("add2", new Object[] {1, 2});
        break;
      case "call:noargs":
        out.call("ping", null);
        break;
      case "call:objects":
        out.call("exchange", new Object[] {Workloads.request(), "x", null});
        break;
      case "call:v2":
        ((HessianOutput) out).setVersion(2);
        out.call("getItems", new Object[] {3});
        break;
      case "call:headers":
        out.startCall();
        out.writeHeader("trace");
        out.writeObject("t-1");
        out.writeMethod("echo");
        out.writeObject(7);
        out.completeCall();
        break;
      case "reply:int":
        out.startReply();
        out.writeObject(42);
        out.completeReply();
        break;
      case "reply:items":
        out.startReply();
        out.writeObject(Workloads.items(2));
        out.completeReply();
        break;
      case "reply:fault":
        fault(out, fmt, "ServiceException", "boom <&>", null);
        break;
      case "reply:fault detail":
        fault(out, fmt, "ServiceException", "with detail", new Money(7));
        break;
      default:
        throw new IllegalArgumentException(name);
    }
    out.flush();
    return bos.toByteArray();
  }

  static final String[] ENVELOPES_H1 = {"call:add2", "call:noargs", "call:objects", "call:v2", "call:headers",
      "reply:int", "reply:items", "reply:fault", "reply:fault detail"};
  static final String[] ENVELOPES_BURLAP = {"call:add2", "call:noargs", "call:objects", "call:headers",
      "reply:int", "reply:items", "reply:fault", "reply:fault detail"};

  static byte[] reencode(String fmt, String name, byte[] data) throws Throwable {
    AbstractHessianInput in = input(fmt, new ByteArrayInputStream(data));
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    AbstractHessianOutput out = output(fmt, bos);
    if (name.startsWith("call:")) {
      in.readCall();
      while (in.readHeader() != null) in.readObject();
      String method = in.readMethod();
      List<Object> args = new ArrayList<>();
      while (!in.isEnd()) args.add(in.readObject());
      in.completeCall();
      out.call(method, args.toArray());
    } else if (name.startsWith("reply:")) {
      try {
        Object v = in.readReply(null);
        out.startReply();
        out.writeObject(v);
        out.completeReply();
      } catch (HessianServiceException e) {
        fault(out, fmt, e.getCode(), e.getMessage(), e.getDetail());
      }
    } else {
      writeValue(out, in.readObject());
    }
    out.flush();
    return bos.toByteArray();
  }

  public static void main(String[] args) throws Throwable {
    String mode = args[0];
    String fmt = args[1];
    DataOutputStream o = new DataOutputStream(new BufferedOutputStream(System.out));
    if (mode.equals("write")) {
      for (Map.Entry<String, Object> e : LegacyCatalogue.cases().entrySet()) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        AbstractHessianOutput out = output(fmt, bos);
        writeValue(out, e.getValue());
        out.flush();
        frame(o, e.getKey(), bos.toByteArray());
      }
      if (!fmt.equals("h2")) {
        for (String env : fmt.equals("h1") ? ENVELOPES_H1 : ENVELOPES_BURLAP) frame(o, env, envelope(fmt, env));
      }
    } else if (mode.equals("reencode")) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(System.in));
      while (true) {
        int nl;
        try {
          nl = in.readUnsignedShort();
        } catch (EOFException eof) {
          break;
        }
        byte[] n = new byte[nl];
        in.readFully(n);
        byte[] payload = new byte[in.readInt()];
        in.readFully(payload);
        String name = new String(n, "UTF-8");
        byte[] result;
        try {
          result = reencode(fmt, name, payload);
        } catch (Throwable ex) {
          result = ("JAVA-ERROR " + ex).getBytes("UTF-8");
        }
        frame(o, name, result);
      }
    } else if (mode.equals("h2catalogue")) {
      // Every H2Catalogue case (the Hessian 2 conformance catalogue) written in Hessian 1 or Burlap.
      for (H2Catalogue.Case c : H2Catalogue.cases()) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        AbstractHessianOutput out = output(fmt, bos);
        out.writeObject(c.value());
        out.flush();
        frame(o, c.name, bos.toByteArray());
      }
    } else if (mode.equals("workload")) {
      // One W1-W3 workload value: workload h1|burlap|h2 items|request|reply|money|moneys N.
      int n = Integer.parseInt(args[3]);
      Object v;
      switch (args[2]) {
        case "items": v = Workloads.items(n); break;
        case "request": v = Workloads.request(); break;
        case "reply": v = Workloads.reply(); break;
        case "money": v = Workloads.money(); break;
        case "moneys": v = Workloads.moneys(n); break;
        default: throw new IllegalArgumentException(args[2]);
      }
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      AbstractHessianOutput out = output(fmt, bos);
      out.writeObject(v);
      out.flush();
      o.write(bos.toByteArray());
    } else if (mode.equals("doubles")) {
      // Double.toString of random and edge-case doubles, as "hexbits text" lines.
      Random r = new Random(Long.parseLong(args[2]));
      List<Double> ds = new ArrayList<>();
      for (int e = -1074; e <= 1023; e++) ds.add(Math.scalb(1.0, e));
      for (int e = -325; e <= 308; e++) ds.add(Double.parseDouble("1e" + e));
      for (long b = 1; b < 2000; b++) ds.add(Double.longBitsToDouble(b));
      ds.add(Double.MIN_NORMAL);
      ds.add(Math.nextDown(Double.MIN_NORMAL));
      ds.add(Double.MAX_VALUE);
      int n = Integer.parseInt(fmt);
      for (int i = 0; i < n; i++) {
        switch (i % 5) {
          case 0: ds.add(Double.longBitsToDouble(r.nextLong())); break;
          case 1: ds.add(r.nextDouble() * Math.pow(10, r.nextInt(40) - 20)); break;
          case 2: ds.add((double) r.nextInt(1000000) / 1000.0); break;
          case 3: ds.add((double) (float) r.nextDouble()); break;
          default: ds.add((double) r.nextLong()); break;
        }
      }
      StringBuilder sb = new StringBuilder();
      for (double d : ds) {
        if (Double.isNaN(d)) continue;
        sb.append(Long.toHexString(Double.doubleToRawLongBits(d))).append(' ').append(d).append('\n');
      }
      o.write(sb.toString().getBytes("UTF-8"));
    } else {
      throw new IllegalArgumentException(mode);
    }
    o.flush();
  }
}
