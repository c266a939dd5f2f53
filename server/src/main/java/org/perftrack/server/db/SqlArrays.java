package org.perftrack.server.db;

import java.sql.Array;
import java.sql.SQLException;

/** PostgreSQL arrays as Java arrays: the raw samples ({@code float8[]}) are read in one place. */
public final class SqlArrays {

  private SqlArrays() {
  }

  /** A {@code float8[]} (or any numeric array) as {@code double[]}; an SQL NULL as an empty array. */
  public static double[] doubles(Array array) throws SQLException {
    if (array == null) {
      return new double[0];
    }
    Object[] boxed = (Object[]) array.getArray();
    double[] values = new double[boxed.length];
    for (int i = 0; i < boxed.length; i++) {
      values[i] = ((Number) boxed[i]).doubleValue();
    }
    return values;
  }
}
