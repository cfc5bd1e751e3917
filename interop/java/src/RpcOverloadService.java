/** Overloaded methods (Caucho's name mangling) and a probe of the protocol the server saw. */
public interface RpcOverloadService {
  String add(int a);

  String add(int a, int b);

  String add(String a, String b);

  /** The Rust server answers with the dialect it detected; the Java server with "java". */
  String dialect();
}
