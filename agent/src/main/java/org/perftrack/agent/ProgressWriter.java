package org.perftrack.agent;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicReference;

/** Passes the console through and keeps its last progress line ("[ 2/3] write-64b …") for the heartbeat. */
final class ProgressWriter extends Writer {
  private final PrintWriter out;
  private final AtomicReference<String> progress;
  private final StringBuilder line = new StringBuilder();

  ProgressWriter(PrintWriter out, AtomicReference<String> progress) {
    this.out = out;
    this.progress = progress;
  }

  @Override
  public void write(char[] buffer, int offset, int length) {
    out.write(buffer, offset, length);
    for (int i = offset; i < offset + length; i++) {
      char c = buffer[i];
      if (c == '\n') {
        String text = line.toString().trim();
        if (text.startsWith("[")) {
          progress.set(text.replaceAll("\\s+", " "));
        }
        line.setLength(0);
      } else if (c != '\r') {
        line.append(c);
      }
    }
  }

  @Override
  public void flush() {
    out.flush();
  }

  @Override
  public void close() {
    out.flush();
  }
}
