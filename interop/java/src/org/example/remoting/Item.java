package org.example.remoting;

import java.util.Date;
import java.util.Objects;

/** Workload W1 item (see docs/workloads.md). */
public class Item implements java.io.Serializable {
  public String name;
  public String street;
  public String city;
  public String comment;
  public Date created;
  public Date updated;
  public long id;
  public int count;
  public double price;
  public float ratio;

  public Item() {}

  private static String pad(String prefix, int i) {
    StringBuilder sb = new StringBuilder(prefix).append(String.format("%010d", i));
    while (sb.length() < 40) sb.append('.');
    return sb.toString();
  }

  /** Item number i of the workload. */
  public static Item of(int i) {
    Item it = new Item();
    it.name = pad("name-", i);
    it.street = pad("street-", i);
    it.city = pad("city-", i);
    it.comment = pad("comment-", i);
    it.created = new Date(1200000000000L + i * 1000L);
    it.updated = new Date(it.created.getTime() + 86400000L);
    it.id = 10000000000L + i;
    it.count = i;
    it.price = i * 1.25 + 0.1;
    it.ratio = (i % 100) / 7.0f;
    return it;
  }

  @Override public boolean equals(Object o) {
    if (!(o instanceof Item)) return false;
    Item x = (Item) o;
    return Objects.equals(name, x.name) && Objects.equals(street, x.street) && Objects.equals(city, x.city)
        && Objects.equals(comment, x.comment) && Objects.equals(created, x.created)
        && Objects.equals(updated, x.updated) && id == x.id && count == x.count
        && Double.compare(price, x.price) == 0 && Float.compare(ratio, x.ratio) == 0;
  }

  @Override public int hashCode() { return Objects.hash(name, id, count); }

  @Override public String toString() {
    return "Item{" + name + "," + street + "," + city + "," + comment + "," + created.getTime() + ","
        + updated.getTime() + "," + id + "," + count + "," + price + "," + ratio + "}";
  }
}
