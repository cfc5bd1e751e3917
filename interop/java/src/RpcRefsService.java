import com.squarespace.hopper.types.Money;
import java.util.List;

/**
 * Arguments that share objects: Java's proxy writes all arguments of a call with one output, so
 * an object passed twice is the object and then a reference to it.
 */
public interface RpcRefsService {
  /** Whether the two arguments are equal ({@code same(m, m)} sends the second as a reference). */
  boolean same(Money a, Money b);

  /** Returns the list, whose elements may refer back to the first argument. */
  List<Money> second(Money a, List<Money> l);
}
