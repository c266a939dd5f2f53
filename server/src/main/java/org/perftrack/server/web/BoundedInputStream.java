package org.perftrack.server.web;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read through it and throws {@link PayloadTooLargeException} (413) once they pass the limit: a
 * chunked request body with no declared length, or a small gzip that inflates to gigabytes.
 */
public final class BoundedInputStream extends FilterInputStream {

  private final long limit;
  private long count;

  public BoundedInputStream(InputStream in, long limit) {
    super(in);
    this.limit = limit;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = super.read(b, off, len);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  private void count(int n) {
    count += n;
    if (count > limit) {
      throw new PayloadTooLargeException(limit);
    }
  }
}
