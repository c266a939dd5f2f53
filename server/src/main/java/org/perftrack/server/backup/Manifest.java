package org.perftrack.server.backup;

import java.time.Instant;
import java.util.List;

/**
 * The first entry of a backup file: what it holds and the schema it was taken from.
 *
 * @param format the file's layout; a restore refuses one it does not know
 * @param takenAt the snapshot's time, as the database saw it
 * @param migrations the schema's applied migrations (Flyway versions), oldest first
 * @param tables every table, parents before the tables that reference them; one {@code data/<name>} entry each
 * @param sequences every sequence's state at the snapshot
 */
record Manifest(int format, Instant takenAt, List<String> migrations, List<Catalog.Table> tables,
    List<Catalog.Sequence> sequences) {

  static final int FORMAT = 1;
  static final String ENTRY = "manifest.json";

  static String dataEntry(String table) {
    return "data/" + table;
  }
}
