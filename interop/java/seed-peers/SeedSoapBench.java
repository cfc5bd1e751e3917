import com.squarespace.hopper.types.Order;
import javax.jws.WebService;
import javax.jws.soap.SOAPBinding;

/**
 * The W1/W2 service as a JAX-WS (SOAP 1.1) endpoint interface, for the seed suite's SOAP row.
 * Document/literal with bare parameters: the wrapped style makes the JAX-WS RI generate wrapper
 * beans with a repackaged ASM that Debian's libjaxws-java does not ship.
 */
@WebService(targetNamespace = "urn:seed")
@SOAPBinding(style = SOAPBinding.Style.DOCUMENT, use = SOAPBinding.Use.LITERAL, parameterStyle = SOAPBinding.ParameterStyle.BARE)
public interface SeedSoapBench {
  /** W1: the list of n items. */
  SeedItems getItems(int n);

  /** W2: answers the reply graph when given the request graph; throws otherwise. */
  Order exchange(Order request);
}
