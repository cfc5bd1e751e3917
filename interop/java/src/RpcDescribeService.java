/** Says what the server decoded (NegotiatingServer, path /describe; LoaderCheck calls it). */
public interface RpcDescribeService {
  /** A map (an object of a class the server lacks) as its sorted entries, else class: value. */
  String describe(Object o);
}
