package org.perftrack.server.ingest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The lines of an NDJSON (or CSV) stream, each bounded: a line longer than the limit is skipped to its end and
 * reported as too long, so one oversized run does not cost the import its memory or its other lines.
 */
final class NdjsonLines {

  /** One line; {@code number} counts from 1. */
  record Line(long number, byte[] bytes, boolean tooLong) {

    boolean blank() {
      for (byte b : bytes) {
        if (b != ' ' && b != '\t' && b != '\r') {
          return false;
        }
      }
      return true;
    }
  }

  private final InputStream in;
  private final int maxLineBytes;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(16 * 1024);
  private final byte[] chunk = new byte[64 * 1024];
  private int position;
  private int filled;
  private long count;
  private boolean ended;

  NdjsonLines(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** The next line, or null at the end of the stream. */
  Line next() throws IOException {
    if (ended) {
      return null;
    }
    buffer.reset();
    boolean tooLong = false;
    int b = 0;
    while (true) {
      if (position == filled) {
        filled = in.read(chunk, 0, chunk.length);
        position = 0;
        if (filled <= 0) {
          filled = 0;
          b = -1;
          break;
        }
      }
      int end = position;
      while (end < filled && chunk[end] != '\n') {
        end++;
      }
      int take = Math.min(end - position, Math.max(0, maxLineBytes - buffer.size()));
      buffer.write(chunk, position, take);
      tooLong |= take < end - position;
      position = end;
      if (end < filled) {
        position++; // the newline
        break;
      }
    }
    if (b < 0) {
      ended = true;
      if (buffer.size() == 0 && !tooLong) {
        return null;
      }
    }
    count++;
    return new Line(count, buffer.toByteArray(), tooLong);
  }

  /** Lines read so far. */
  long count() {
    return count;
  }
}
