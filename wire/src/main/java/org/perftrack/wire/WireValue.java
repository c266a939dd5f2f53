package org.perftrack.wire;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Arrays;

/**
 * What a record would give the wire's Java 8 shapes: equality, hash and "Name[field=value, …]", from the fields
 * each shape names once, in its {@link JsonPropertyOrder}.
 */
abstract class WireValue {

  /** The values of the fields the class's {@link JsonPropertyOrder} names, in that order. */
  abstract Object[] values();

  @Override
  public final boolean equals(Object o) {
    return this == o || o != null && o.getClass() == getClass() && Arrays.equals(values(), ((WireValue) o).values());
  }

  @Override
  public final int hashCode() {
    return Arrays.hashCode(values());
  }

  @Override
  public final String toString() {
    String[] names = getClass().getAnnotation(JsonPropertyOrder.class).value();
    Object[] values = values();
    StringBuilder s = new StringBuilder(getClass().getSimpleName()).append('[');
    for (int i = 0; i < names.length; i++) {
      s.append(i == 0 ? "" : ", ").append(names[i]).append('=').append(values[i]);
    }
    return s.append(']').toString();
  }
}
