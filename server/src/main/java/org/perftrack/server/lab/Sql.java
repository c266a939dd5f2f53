package org.perftrack.server.lab;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** Reading PostgreSQL arrays and timestamps in the lab's row mappers. */
final class Sql {

  private Sql() {}

  static List<String> strings(ResultSet rs, String column) throws SQLException {
    Array array = rs.getArray(column);
    return array == null ? null : List.of((String[]) array.getArray());
  }

  static List<UUID> uuids(ResultSet rs, String column) throws SQLException {
    Array array = rs.getArray(column);
    return array == null ? List.of() : new ArrayList<>(Arrays.asList((UUID[]) array.getArray()));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp t = rs.getTimestamp(column);
    return t == null ? null : t.toInstant();
  }
}
