package org.perftrack.server.support;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Bodies written to take as much of the server's heap as their length allows: one-digit samples (two bytes of JSON
 * or CSV each, a boxed number once parsed). Each comes as a small head that makes it a request of its own (a run
 * id, a version) and a large middle that many requests can share.
 */
public final class LargeBodies {

  /** The kinds of body, and where each goes. */
  public enum Kind {
    /** {@code POST /api/v1/runs}: one run with one result of {@code n} samples. */
    UPLOAD("/api/v1/runs", "application/json"),
    /** {@code POST /api/v1/runs?format=hyperfine}: a hyperfine file of one command timed {@code n} times. */
    FORMAT("/api/v1/runs?format=hyperfine&product=attack&machine=m1&version=", "application/json"),
    /** {@code POST /api/v1/runs:import}: NDJSON lines of 1 MB runs. */
    IMPORT("/api/v1/runs:import", "application/x-ndjson"),
    /** {@code POST /api/v1/runs:import} as CSV: one row per sample. */
    CSV("/api/v1/runs:import", "text/csv");

    public final String path;
    public final String contentType;

    Kind(String path, String contentType) {
      this.path = path;
      this.contentType = contentType;
    }
  }

  private LargeBodies() {}

  /** The path and query of request {@code i} of a kind (a ?format= upload names its version in the query). */
  public static String path(Kind kind, int i) {
    return kind == Kind.FORMAT ? kind.path + "1." + i : kind.path;
  }

  /** The shared middle of a body of about {@code bytes} bytes. */
  public static byte[] middle(Kind kind, int bytes) {
    StringBuilder s = new StringBuilder(bytes + 4096);
    switch (kind) {
      case UPLOAD, FORMAT -> {
        s.append('1');
        while (s.length() < bytes) {
          s.append(",1");
        }
      }
      case IMPORT -> {
        int line = 0;
        while (s.length() < bytes) {
          s.append("{\"id\":\"").append(UUID.nameUUIDFromBytes(("line" + line).getBytes(StandardCharsets.UTF_8)))
              .append("\",\"product\":\"attack\",\"version\":\"0.").append(line++)
              .append("\",\"machine\":{\"name\":\"m1\"},\"results\":[{\"benchmark\":\"b\",\"metric\":\"time\",")
              .append("\"unit\":\"ns\",\"direction\":\"lower_is_better\",\"samples\":[1");
          int end = Math.min(bytes, s.length() + (1 << 20));
          while (s.length() < end) {
            s.append(",1");
          }
          s.append("]}]}\n");
        }
      }
      case CSV -> {
        for (int row = 0; s.length() < bytes; row++) {
          s.append("attack,m1,0.").append(row / 1000).append(",b,time,ns,lower_is_better,1\n");
        }
      }
      default -> throw new IllegalArgumentException(kind.name());
    }
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** What comes before the middle in request {@code i}. */
  public static byte[] head(Kind kind, int i) {
    String head = switch (kind) {
      case UPLOAD -> "{\"id\":\"" + UUID.randomUUID() + "\",\"product\":\"attack\",\"version\":\"1." + i
          + "\",\"machine\":{\"name\":\"m1\"},\"results\":[{\"benchmark\":\"b\",\"metric\":\"time\",\"unit\":\"ns\","
          + "\"direction\":\"lower_is_better\",\"samples\":[";
      case FORMAT -> "{\"results\":[{\"command\":\"true\",\"mean\":1,\"stddev\":0,\"median\":1,\"user\":0,"
          + "\"system\":0,\"min\":1,\"max\":1,\"times\":[";
      case IMPORT -> "";
      case CSV -> "product,machine,version,benchmark,metric,unit,direction,value\n";
    };
    return head.getBytes(StandardCharsets.UTF_8);
  }

  /** What comes after the middle. */
  public static byte[] tail(Kind kind) {
    return (kind == Kind.UPLOAD || kind == Kind.FORMAT ? "]}]}" : "").getBytes(StandardCharsets.UTF_8);
  }
}
