package org.perftrack.server.backup;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.postgresql.PGConnection;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Fills an empty database from a {@link Backup}: migrates it to the backup's schema version (the migrations of this
 * jar), loads every table in one transaction (their triggers off: the rows already hold what the triggers would
 * add), sets every sequence, then migrates to this jar's newest version, so a backup of an older perftrack restores
 * into a newer one. A database that holds anything is refused before anything is written.
 *
 * <p>Size: {@code load} (about 45 lines) is one transaction's steps in their required order (what the migrations made
 * gives way, COPY each table, sequences, generated ids).
 */
public final class Restore {

  private Restore() {}

  /** Why a restore did not start; nothing was written. */
  public static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  /** What was loaded: rows per table. */
  public record Restored(Map<String, Long> rows, String schemaVersion) {
    public long totalRows() {
      return rows.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  public static Restored restore(DataSource target, InputStream in) throws IOException, SQLException {
    ZipInputStream zip = new ZipInputStream(in);
    Manifest manifest = manifest(zip);
    List<String> present = Catalog.someRelations(JdbcClient.create(target));
    if (!present.isEmpty()) {
      throw new Refused("the database is not empty (it holds " + String.join(", ", present)
          + (present.size() > 2 ? ", …" : "") + "): restore fills an empty database only");
    }
    String version = newest(manifest.migrations());
    checkKnown(target, manifest.migrations());
    flyway(target).target(version).load().migrate();
    Map<String, Long> rows;
    try (Connection c = target.getConnection()) {
      c.setAutoCommit(false);
      try {
        rows = load(c, manifest, zip);
        c.commit();
      } catch (SQLException | IOException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
    flyway(target).load().migrate();
    return new Restored(rows, version);
  }

  private static Manifest manifest(ZipInputStream zip) throws IOException {
    ZipEntry first;
    try {
      first = zip.getNextEntry();
    } catch (java.util.zip.ZipException e) {
      first = null;
    }
    if (first == null || !first.getName().equals(Manifest.ENTRY)) {
      throw new Refused("not a perftrack backup (it does not begin with " + Manifest.ENTRY + ")");
    }
    Manifest manifest = Backup.JSON.readValue(zip.readAllBytes(), Manifest.class);
    if (manifest.format() != Manifest.FORMAT) {
      throw new Refused("a backup of format " + manifest.format() + ", which this perftrack does not read (it reads "
          + Manifest.FORMAT + "): restore it with the perftrack that made it, or a newer one");
    }
    return manifest;
  }

  private static Map<String, Long> load(Connection c, Manifest manifest, ZipInputStream zip)
      throws SQLException, IOException {
    JdbcClient jdbc = JdbcClient.create(new SingleConnectionDataSource(c, true));
    List<String> names = manifest.tables().stream().map(Catalog.Table::name).toList();
    String all = String.join(", ", names.stream().map(Catalog::quote).toList());
    for (String t : names) {
      jdbc.sql("ALTER TABLE " + Catalog.quote(t) + " DISABLE TRIGGER USER").update();
    }
    // rows that the migrations themselves made give way to the backup's
    jdbc.sql("TRUNCATE " + all).update();
    var copy = c.unwrap(PGConnection.class).getCopyAPI();
    Map<String, Long> rows = new LinkedHashMap<>();
    Map<String, Catalog.Table> byEntry = new LinkedHashMap<>();
    manifest.tables().forEach(t -> byEntry.put(Manifest.dataEntry(t.name()), t));
    for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
      Catalog.Table t = byEntry.get(e.getName());
      if (t == null) {
        throw new Refused("the backup holds " + e.getName() + ", which its manifest does not list");
      }
      rows.put(t.name(), copy.copyIn("COPY " + Catalog.quote(t.name()) + " (" + Catalog.columnList(t.columns())
          + ") FROM STDIN (FORMAT binary)", zip));
    }
    if (rows.size() != names.size()) {
      Set<String> missing = new HashSet<>(names);
      missing.removeAll(rows.keySet());
      throw new Refused("the backup is incomplete: no rows of " + missing);
    }
    setSequences(jdbc, manifest);
    for (String t : names) {
      jdbc.sql("ALTER TABLE " + Catalog.quote(t) + " ENABLE TRIGGER USER").update();
    }
    return rows;
  }

  /** The sequences as the backup left them, and past every restored id where the backup has no value for one. */
  private static void setSequences(JdbcClient jdbc, Manifest manifest) {
    for (Catalog.Sequence s : manifest.sequences()) {
      jdbc.sql("SELECT setval(CAST(? AS regclass), ?, ?)").params(Catalog.quote(s.name()),
          s.last() == null ? s.start() : s.last(), s.last() != null).query(Long.class).single();
    }
    // a backup by a role that could not read a sequence has no value for it: the restored ids say where it stands
    for (Catalog.Generated g : Catalog.generatedIds(jdbc)) {
      jdbc.sql("SELECT setval(CAST(? AS regclass), m) FROM (SELECT max(" + Catalog.quote(g.column()) + ") AS m FROM "
          + Catalog.quote(g.table()) + ") x"
          + " WHERE m > (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END"
          + " FROM " + g.sequence() + ")").param(g.sequence()).query(Long.class).optional();
    }
  }

  /** Every migration of the backup must be one this jar has: an older jar cannot make a newer schema. */
  private static void checkKnown(DataSource target, List<String> migrations) {
    Set<String> known = new HashSet<>();
    for (MigrationInfo info : flyway(target).load().info().all()) {
      if (info.getVersion() != null) {
        known.add(info.getVersion().getVersion());
      }
    }
    List<String> unknown = new ArrayList<>(migrations);
    unknown.removeIf(v -> known.contains(MigrationVersion.fromVersion(v).getVersion()));
    if (!unknown.isEmpty()) {
      throw new Refused("the backup was made by a newer perftrack (its schema has migrations " + unknown
          + " that this one does not know): restore it with that version or a newer one");
    }
  }

  private static String newest(List<String> migrations) {
    return migrations.stream().map(MigrationVersion::fromVersion).max(Comparator.naturalOrder())
        .orElseThrow(() -> new Refused("the backup names no schema version")).getVersion();
  }

  /** The server's own Flyway settings (application.properties: spring.flyway.*). */
  static org.flywaydb.core.api.configuration.FluentConfiguration flyway(DataSource target) {
    return Flyway.configure().dataSource(target).locations("classpath:db/migration").outOfOrder(true);
  }
}
