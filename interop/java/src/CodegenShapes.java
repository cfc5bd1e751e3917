import java.util.List;
import org.example.codegen.Circle;
import org.example.codegen.Color;
import org.example.codegen.Ledger;

/** The code generator's test interface (crates/hessian-codegen/tests/codegen.rs): enums, a class
 * hierarchy, boxed and collection fields, a self-referencing class, overloads. */
public interface CodegenShapes {
  Circle largest(List<Circle> circles);
  double area(Circle c);
  double area(int radius);
  void paint(Color color, String label);
  Color[] palette();
}

/** An interface whose types the generator cannot map. */
interface CodegenUnmappable {
  Ledger ledger(String name);
}
