package com.acme.inventory;

import java.util.List;
import java.util.Map;

/**
 * A small Java service as a Rust user meets one (issue 27): items with every kind of reference
 * field, nulls in all of them, and declared exceptions with fields and causes. Served by Caucho's
 * HessianServlet in Jetty (InventoryJetty) and by the Rust server of the code `hessian codegen`
 * generates (crates/hessian-codegen/tests/inventory.rs); InventoryCheck is its Java client.
 */
public interface Inventory {
  /** The item `id`; NotFoundException(id) for an unknown id (with a null message for id 0), an
   * (undeclared) IllegalStateException for a negative one. Item 4 has null in every reference
   * field. */
  Item get(long id) throws NotFoundException;

  /** Items whose name contains `query` (all for ""), at most `limit`. */
  List<Item> search(String query, int limit);

  /** Adds `quantity` to the stock of `id`: NotFoundException for an unknown id, StockException
   * (caused by an IllegalArgumentException) for a negative quantity. */
  void restock(long id, int quantity) throws NotFoundException, StockException;

  /** The item it is given, unchanged. */
  Item echo(Item item);

  /** Stock counts by item name, in insertion order (a LinkedHashMap). */
  Map<String, Integer> counts();

  /** The item named `name`, or null. */
  Item find(String name);

  /** Items 1 and 4 with a null between them. */
  List<Item> pick();

  /** Always fails: BatchException(count) with a null supplier, and null ids (count 0) or ids
   * holding a null and a null note (otherwise). */
  void batch(int count) throws BatchException;
}
