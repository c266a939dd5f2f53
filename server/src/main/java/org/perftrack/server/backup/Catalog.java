package org.perftrack.server.backup;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What a backup holds, read from PostgreSQL's catalog rather than listed by hand: every table of perftrack's schema
 * (a table added by a later migration is backed up without a change here), its columns, and its sequences. Tables
 * come in foreign-key order, parents first, so that a restore inserts them in the order it reads them.
 */
final class Catalog {

  /** Flyway's own table: a restore migrates the empty database to the backup's version, which fills it. */
  static final String FLYWAY_HISTORY = "flyway_schema_history";

  /** Tables whose rows are held by their parent (partitions, if any) are copied through the parent. */
  static final String TABLES = """
      SELECT c.relname FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND c.relname <> ?
      ORDER BY c.relname""";

  static final String FOREIGN_KEYS = """
      SELECT child.relname AS child, parent.relname AS parent
      FROM pg_constraint k JOIN pg_class child ON child.oid = k.conrelid
        JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace""";

  /** Generated columns are computed again by the restoring database, not copied. */
  static final String COLUMNS = """
      SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ? AND a.attnum > 0
        AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum""";

  static final String SEQUENCES = """
      SELECT sequencename, start_value, last_value FROM pg_sequences WHERE schemaname = current_schema()
      ORDER BY sequencename""";

  /** Columns whose values a sequence makes (identity or serial), with the sequence's qualified name. */
  static final String GENERATED_IDS = """
      SELECT c.relname, a.attname, pg_get_serial_sequence(quote_ident(c.relname), a.attname) AS seq
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND a.attnum > 0 AND NOT a.attisdropped
        AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL""";

  static final String MIGRATIONS = """
      SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL ORDER BY installed_rank""";

  static final String RELATIONS = """
      SELECT c.relname FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
      ORDER BY c.relname LIMIT 3""";

  private Catalog() {}

  /** One table as the backup copies it. */
  record Table(String name, List<String> columns) {}

  /** A sequence's state: {@code last} is null when no value was ever taken from it. */
  record Sequence(String name, long start, Long last) {}

  /** A column filled by {@code sequence} (schema-qualified, quoted as needed). */
  record Generated(String table, String column, String sequence) {}

  static List<Generated> generatedIds(JdbcClient jdbc) {
    return jdbc.sql(GENERATED_IDS).query((rs, i) -> new Generated(rs.getString(1), rs.getString(2), rs.getString(3)))
        .list();
  }

  static List<Table> tables(JdbcClient jdbc) {
    List<String> names = jdbc.sql(TABLES).param(FLYWAY_HISTORY).query(String.class).list();
    Map<String, Set<String>> parents = new HashMap<>();
    jdbc.sql(FOREIGN_KEYS).query((java.sql.ResultSet rs) -> {
      parents.computeIfAbsent(rs.getString("child"), k -> new TreeSet<>()).add(rs.getString("parent"));
    });
    List<Table> tables = new ArrayList<>();
    for (String name : parentsFirst(names, parents)) {
      tables.add(new Table(name, jdbc.sql(COLUMNS).param(name).query(String.class).list()));
    }
    return tables;
  }

  static List<Sequence> sequences(JdbcClient jdbc) {
    return jdbc.sql(SEQUENCES).query((rs, i) -> new Sequence(rs.getString("sequencename"), rs.getLong("start_value"),
        rs.getObject("last_value") == null ? null : rs.getLong("last_value"))).list();
  }

  static List<String> migrations(JdbcClient jdbc) {
    return jdbc.sql(MIGRATIONS).query(String.class).list();
  }

  /** A few of the relations in the schema: none in an empty database. */
  static List<String> someRelations(JdbcClient jdbc) {
    return jdbc.sql(RELATIONS).query(String.class).list();
  }

  /** Depth-first: a table after all the tables it references (a reference to itself is checked within its copy). */
  static List<String> parentsFirst(List<String> names, Map<String, Set<String>> parents) {
    Set<String> known = new HashSet<>(names);
    Map<String, Boolean> state = new LinkedHashMap<>(); // false: being visited, true: placed
    List<String> order = new ArrayList<>();
    for (String name : names) {
      Deque<String> path = new ArrayDeque<>();
      visit(name, parents, known, state, order, path);
    }
    return order;
  }

  private static void visit(String name, Map<String, Set<String>> parents, Set<String> known,
      Map<String, Boolean> state, List<String> order, Deque<String> path) {
    Boolean s = state.get(name);
    if (Boolean.TRUE.equals(s)) {
      return;
    }
    if (Boolean.FALSE.equals(s)) {
      throw new IllegalStateException("the tables' foreign keys form a cycle: " + path);
    }
    state.put(name, false);
    path.push(name);
    for (String parent : parents.getOrDefault(name, Set.of())) {
      if (!parent.equals(name) && known.contains(parent)) {
        visit(parent, parents, known, state, order, path);
      }
    }
    path.pop();
    state.put(name, true);
    order.add(name);
  }

  /** A name as an SQL identifier. */
  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  static String columnList(List<String> columns) {
    return String.join(", ", columns.stream().map(Catalog::quote).toList());
  }
}
