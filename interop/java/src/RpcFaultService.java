/** Faults as a Java skeleton sends them (crates/hessian-rpc/tests/java_exceptions.rs): path /faults. */
public interface RpcFaultService {
  /** Throws an IllegalStateException(message) caused by an IOException caused by an ArithmeticException. */
  String chain(String message);

  /** Throws an exception whose cause chain loops (a -> b -> a). */
  String loop();

  /** Calls `thrower` (a Rust server's URL) and answers the class of what its proxy threw, caught
   * as a Java exception, and its message. */
  String catchFrom(String url);
}
