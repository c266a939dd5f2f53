package org.perftrack.server.backup;

import java.io.IOException;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.postgresql.PGConnection;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * A backup: every table of perftrack's schema, read in one REPEATABLE READ snapshot (the server keeps taking
 * uploads; the backup holds the database as it was at its first statement, like {@code pg_dump}), written as a
 * zip file of a {@link Manifest} and one binary {@code COPY} stream per table. Needs nothing but the JDBC
 * connection: the embedded PostgreSQL ships no {@code pg_dump}.
 */
public final class Backup {

  static final JsonMapper JSON = JsonMapper.builder().build();

  private Backup() {}

  /** What was written: rows per table, in the order written. */
  public record Written(Instant takenAt, Map<String, Long> rows) {
    public long totalRows() {
      return rows.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** Takes a snapshot on its own transaction of {@code connection} and writes it to {@code out}. */
  public static Written write(Connection connection, OutputStream out) throws SQLException, IOException {
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try {
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      connection.setReadOnly(true);
      Written written = writeInTransaction(connection, out);
      connection.commit();
      return written;
    } catch (SQLException | IOException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setReadOnly(false);
      connection.setAutoCommit(autoCommit);
    }
  }

  /**
   * Writes the snapshot of the transaction already open on {@code connection} (REPEATABLE READ or SERIALIZABLE):
   * a caller that read the database in the same transaction reads exactly what the backup holds.
   */
  public static Written writeInTransaction(Connection connection, OutputStream out) throws SQLException, IOException {
    JdbcClient jdbc = JdbcClient.create(new SingleConnectionDataSource(connection, true));
    Instant takenAt = jdbc.sql("SELECT now()").query(java.sql.Timestamp.class).single().toInstant();
    List<Catalog.Table> tables = Catalog.tables(jdbc);
    Manifest manifest = new Manifest(Manifest.FORMAT, takenAt, Catalog.migrations(jdbc), tables,
        Catalog.sequences(jdbc));
    var copy = connection.unwrap(PGConnection.class).getCopyAPI();
    Map<String, Long> rows = new LinkedHashMap<>();
    ZipOutputStream zip = new ZipOutputStream(out); // finished, not closed: the caller's stream stays open
    zip.setLevel(Deflater.BEST_SPEED);
    zip.putNextEntry(new ZipEntry(Manifest.ENTRY));
    zip.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest));
    zip.closeEntry();
    for (Catalog.Table t : tables) {
      zip.putNextEntry(new ZipEntry(Manifest.dataEntry(t.name())));
      long n = copy.copyOut("COPY (SELECT " + Catalog.columnList(t.columns()) + " FROM " + Catalog.quote(t.name())
          + ") TO STDOUT (FORMAT binary)", zip);
      zip.closeEntry();
      rows.put(t.name(), n);
    }
    zip.finish();
    zip.flush();
    return new Written(takenAt, rows);
  }
}
