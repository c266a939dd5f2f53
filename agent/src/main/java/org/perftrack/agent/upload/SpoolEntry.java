package org.perftrack.agent.upload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run waiting in the spool, as {@code perftrack-agent spool} lists it: where it goes ({@code server}, null for one
 * spooled before the spool recorded servers), what it measured, and since when it waits.
 */
public final class SpoolEntry {
  private final Path file;
  private final String server;
  private final Request request;
  private final long spooledAt;

  private SpoolEntry(Path file, String server, Request request, long spooledAt) {
    this.file = file;
    this.server = server;
    this.request = request;
    this.spooledAt = spooledAt;
  }

  /** The entry in {@code file}; null when another process has sent or dropped it meanwhile. */
  static SpoolEntry read(Path file, String server) {
    try {
      long modified = Files.getLastModifiedTime(file).toMillis();
      return new SpoolEntry(file, server, Request.of(file.getFileName().toString(), Files.readAllBytes(file)),
          modified);
    } catch (IOException e) {
      return null;
    }
  }

  public Path file() {
    return file;
  }

  /** The entry's id: the run's id, its file's name without {@code .json} or {@code .upload}. */
  public String id() {
    return Spool.idOf(file);
  }

  /** The normalised address of the server it goes to; null: spooled before servers were recorded. */
  public String server() {
    return server;
  }

  public String product() {
    return request.product();
  }

  public String version() {
    return request.version();
  }

  public String machine() {
    return request.machine();
  }

  /** Its session, or null. */
  String batch() {
    return request.batch();
  }

  /** When it was spooled (its file's modification time), in epoch milliseconds. */
  public long spooledAt() {
    return spooledAt;
  }
}
