package org.perftrack.server.db;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Rows for PostgreSQL's {@code COPY … FROM STDIN (FORMAT binary)}: numbers travel as their 8 bytes, so neither
 * side formats or parses decimal text (formatting doubles was a third of the Java time of storing samples with
 * text COPY on Java 17, and parsing them a large part of PostgreSQL's). Layout: the PostgreSQL manual, "COPY",
 * Binary Format; arrays as {@code array_send} writes them.
 *
 * <p>{@link #streaming} sends the rows while they are made, in chunks of {@value #CHUNK} bytes: PostgreSQL
 * inserts the first rows while Java makes the next (a bulk import's results and points), and the buffer stays
 * one chunk.
 */
public final class BinaryCopy {

  private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0};
  private static final int FLOAT8_OID = 701;

  /** Bytes a streaming copy sends at a time. */
  static final int CHUNK = 128 * 1024;

  private byte[] buf;
  private int size;
  private long rows;
  private CopyIn stream;

  public BinaryCopy(int expectedBytes) {
    buf = new byte[Math.max(64, expectedBytes)];
    bytes(HEADER);
    int4(0); // flags
    int4(0); // header extension length
  }

  /**
   * A copy already started on {@code connection} with {@code copy} ({@code COPY t (…) FROM STDIN (FORMAT binary)}):
   * the rows go to PostgreSQL as they are made; end it with {@link #finish()}, or {@link #cancel()} on failure
   * (nothing else may use the connection in between).
   */
  public static BinaryCopy streaming(Connection connection, String copy) throws SQLException {
    CopyIn in = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copy);
    BinaryCopy rows = new BinaryCopy(CHUNK);
    rows.stream = in;
    return rows;
  }

  /** Ends a {@link #streaming} copy: sends the rest and the trailer; returns the rows copied. */
  public long finish() throws SQLException {
    int2(-1); // trailer
    send();
    return stream.endCopy();
  }

  /** Abandons a {@link #streaming} copy (its rows are not inserted); the connection is usable again. */
  public void cancel() {
    try {
      if (stream.isActive()) {
        stream.cancelCopy();
      }
    } catch (SQLException e) {
      // the transaction fails anyway; the caller reports the first error
    }
  }

  /** Starts a row of {@code fields} fields. */
  public BinaryCopy row(int fields) {
    rows++;
    int2(fields);
    return this;
  }

  public BinaryCopy uuid(UUID value) {
    int4(16);
    int8raw(value.getMostSignificantBits());
    int8raw(value.getLeastSignificantBits());
    return this;
  }

  public BinaryCopy int8(long value) {
    int4(8);
    int8raw(value);
    return this;
  }

  public BinaryCopy integer(int value) {
    int4(4);
    int4(value);
    return this;
  }

  public BinaryCopy float8(double value) {
    int4(8);
    int8raw(Double.doubleToRawLongBits(value));
    return this;
  }

  /** A double, or NULL for null or NaN (no value). */
  public BinaryCopy float8OrNull(Double value) {
    return value == null || value.isNaN() ? nul() : float8(value);
  }

  public BinaryCopy bool(boolean value) {
    int4(1);
    ensure(1);
    buf[size++] = (byte) (value ? 1 : 0);
    return this;
  }

  public BinaryCopy text(String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    int4(utf8.length);
    bytes(utf8);
    return this;
  }

  public BinaryCopy nul() {
    int4(-1);
    return this;
  }

  /** A one-dimensional {@code double precision[]} without NULLs ({@code {}} when empty). */
  public BinaryCopy float8Array(List<Double> values) {
    int n = values == null ? 0 : values.size();
    int4(n == 0 ? 12 : 20 + 12 * n);
    int4(n == 0 ? 0 : 1); // dimensions
    int4(0); // no NULLs
    int4(FLOAT8_OID);
    if (n > 0) {
      int4(n); // length of the dimension
      int4(1); // its lower bound
      for (int i = 0; i < n; i++) {
        int4(8);
        int8raw(Double.doubleToRawLongBits(values.get(i)));
      }
    }
    return this;
  }

  public long rows() {
    return rows;
  }

  /** Sends the rows with {@code copy} ({@code COPY t (…) FROM STDIN (FORMAT binary)}); returns the rows copied. */
  public long copyIn(Connection connection, String copy) throws SQLException, IOException {
    int2(-1); // trailer
    return connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copy, new ByteArrayInputStream(buf, 0, size));
  }

  private void send() {
    if (size > 0) {
      try {
        stream.writeToCopy(buf, 0, size);
      } catch (SQLException e) {
        throw new IllegalStateException("COPY failed", e);
      }
      size = 0;
    }
  }

  private void int2(int v) {
    ensure(2);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  private void int4(int v) {
    ensure(4);
    buf[size++] = (byte) (v >>> 24);
    buf[size++] = (byte) (v >>> 16);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
  }

  private void int8raw(long v) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[size++] = (byte) (v >>> shift);
    }
  }

  private void bytes(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
  }

  private void ensure(int more) {
    if (size + more > buf.length && stream != null) {
      send();
    }
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }
}
