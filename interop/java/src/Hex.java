/** Hex text of bytes and back: how the Rust tests and the Java sample programs pass messages. */
public final class Hex {
  private Hex() {}

  /** Lower-case hex of `bytes`. */
  public static String of(byte[] bytes) {
    StringBuilder b = new StringBuilder(bytes.length * 2);
    for (byte x : bytes) b.append(String.format("%02x", x));
    return b.toString();
  }

  /** The bytes of hex text. */
  public static byte[] parse(String hex) {
    byte[] bytes = new byte[hex.length() / 2];
    for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    return bytes;
  }
}
