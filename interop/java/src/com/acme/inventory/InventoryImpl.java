package com.acme.inventory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java implementation of Inventory. Its exceptions are thrown without stack frames (the
 * cause's too), so that the fault bytes HessianServlet writes can be compared byte for byte with
 * the Rust server's, which has no Java frames to send.
 */
public class InventoryImpl implements Inventory {
  /** Item 1 with every field set, item 4 with null in every reference field. */
  public static Item item(long id) {
    Item it = new Item();
    it.id = id;
    if (id == 4) {
      it.price = 0.5;
      return it;
    }
    it.name = "widget " + id;
    it.price = 2.5 * id;
    it.added = new Date(1700000000000L + id);
    it.active = true;
    it.reorderLevel = 10;
    Supplier s = new Supplier();
    s.name = "Acme";
    s.country = "NL";
    it.supplier = s;
    it.tags = new ArrayList<>(Arrays.asList("blue", "small"));
    return it;
  }

  static <T extends Throwable> T bare(T t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      c.setStackTrace(new StackTraceElement[0]);
    }
    return t;
  }

  public Item get(long id) throws NotFoundException {
    if (id == 1 || id == 2 || id == 4) {
      return item(id);
    }
    if (id < 0) {
      // an exception `get` does not declare, with its stack trace
      throw new IllegalStateException("negative id " + id);
    }
    if (id == 0) {
      throw bare(new NotFoundException(id, null));
    }
    throw bare(new NotFoundException(id));
  }

  public List<Item> search(String query, int limit) {
    List<Item> out = new ArrayList<>();
    for (long id : new long[] {1, 2, 4}) {
      Item it = item(id);
      if (out.size() < limit && (query.isEmpty() || (it.name != null && it.name.contains(query)))) {
        out.add(it);
      }
    }
    return out;
  }

  public void restock(long id, int quantity) throws NotFoundException, StockException {
    if (id != 1 && id != 2 && id != 4) {
      throw bare(new NotFoundException(id));
    }
    if (quantity < 0) {
      throw bare(new StockException("cannot restock " + quantity + " < 0", quantity,
          new IllegalArgumentException("negative quantity")));
    }
  }

  public Item echo(Item item) {
    return item;
  }

  public Map<String, Integer> counts() {
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("zebra", 3);
    m.put("apple", null);
    m.put("mango", 7);
    return m;
  }

  public Item find(String name) {
    for (long id : new long[] {1, 2, 4}) {
      Item it = item(id);
      if (name.equals(it.name)) {
        return it;
      }
    }
    return null;
  }

  public List<Item> pick() {
    return new ArrayList<>(Arrays.asList(item(1), null, item(4)));
  }

  public void batch(int count) throws BatchException {
    if (count == 0) {
      throw bare(new BatchException("empty batch", 0, null, null, "nothing to do"));
    }
    throw bare(new BatchException("batch of " + count + " failed", count, null,
        new ArrayList<>(Arrays.asList("a", null)), null));
  }
}
