package com.acme.inventory;

import com.caucho.hessian.client.HessianProxyFactory;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Caucho's HessianProxyFactory calling an Inventory at the URL given (the Rust server of the
 * generated trait, and HessianServlet to check the check): checks every answer against InventoryImpl's, the nulls of item 4 and an
 * echoed item of nulls, and that the declared exceptions arrive as their classes with their
 * fields and causes. Prints "ok" lines and ends with "done"; exits 1 at the first mismatch.
 */
public class InventoryCheck {
  static void check(boolean ok, String what) {
    if (!ok) {
      System.out.println("FAIL " + what);
      System.exit(1);
    }
    System.out.println("ok " + what);
  }

  public static void main(String[] args) throws Exception {
    Inventory inv = (Inventory) new HessianProxyFactory().create(Inventory.class, args[0]);
    check(inv.get(1).toString().equals(InventoryImpl.item(1).toString()), "get(1) " + inv.get(1));
    Item nulls = inv.get(4);
    check(nulls.name == null && nulls.added == null && nulls.supplier == null && nulls.tags == null
        && nulls.reorderLevel == null && nulls.price == 0.5, "get(4) has nulls " + nulls);
    check(nulls.toString().equals(InventoryImpl.item(4).toString()), "get(4) " + nulls);
    Item half = InventoryImpl.item(2);
    half.supplier.country = null;
    half.tags = Arrays.asList("x", "y");
    Item back = inv.echo(half);
    check(back.toString().equals(half.toString()), "echo " + back);
    check(inv.echo(InventoryImpl.item(4)).toString().equals(InventoryImpl.item(4).toString()), "echo nulls");
    List<Item> found = inv.search("", 10);
    check(found.size() == 3 && found.get(2).name == null, "search " + found);
    Map<String, Integer> counts = inv.counts();
    check(counts.keySet().toString().equals("[zebra, apple, mango]") && counts.get("apple") == null,
        "counts in order " + counts);
    try {
      inv.get(42);
      check(false, "get(42) threw nothing");
    } catch (NotFoundException e) {
      check(e.getId() == 42, "NotFoundException id " + e.getId());
      // Caucho's proxy sets detailMessage to the fault's message, which the skeleton escaped
      check(e.getMessage().equals("no item 42 &lt;unknown id &amp; not in stock&gt;"), "message " + e.getMessage());
      check(e.getCause() == null, "no cause " + e.getCause());
    }
    try {
      inv.restock(1, -3);
      check(false, "restock(1, -3) threw nothing");
    } catch (StockException e) {
      check(e.getRequested() == -3, "StockException requested " + e.getRequested());
      check(e.getMessage().equals("cannot restock -3 &lt; 0"), "message " + e.getMessage());
      Throwable c = e.getCause();
      check(c instanceof IllegalArgumentException && c.getMessage().equals("negative quantity"),
          "cause " + c);
      check(c.getCause() == null, "the cause has no cause");
    }
    try {
      inv.restock(9, 1);
      check(false, "restock(9, 1) threw nothing");
    } catch (NotFoundException e) {
      check(e.getId() == 9, "restock NotFoundException id " + e.getId());
    }
    try {
      inv.get(0);
      check(false, "get(0) threw nothing");
    } catch (NotFoundException e) {
      check(e.getId() == 0 && e.getMessage() == null, "null message id " + e.getId() + " " + e.getMessage());
    }
    check(inv.find("nope") == null, "find returns null");
    check(inv.find("widget 2").toString().equals(InventoryImpl.item(2).toString()), "find widget 2");
    List<Item> picked = inv.pick();
    check(picked.size() == 3 && picked.get(1) == null && picked.get(2).toString().equals(InventoryImpl.item(4).toString()),
        "pick with a null " + picked);
    try {
      inv.batch(0);
      check(false, "batch(0) threw nothing");
    } catch (BatchException e) {
      check(e.getCount() == 0 && e.getSupplier() == null && e.getIds() == null && "nothing to do".equals(e.getNote())
          && "empty batch".equals(e.getMessage()), "BatchException with nulls count " + e.getCount());
    }
    try {
      inv.batch(2);
      check(false, "batch(2) threw nothing");
    } catch (BatchException e) {
      check(e.getCount() == 2 && e.getSupplier() == null && e.getIds().toString().equals("[a, null]")
          && e.getNote() == null, "BatchException ids " + e.getIds());
    }
    System.out.println("done");
  }
}
