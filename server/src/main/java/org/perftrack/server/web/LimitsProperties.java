package org.perftrack.server.web;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Size limits on input.
 *
 * @param maxBodyBytes the largest API request body accepted (and the longest line of an import)
 * @param maxImportBytes the largest bulk import ({@code POST /api/v1/runs:import}), as sent and after gunzip
 * @param maxImportLines the most lines one import reads; the rest are reported as not read
 * @param maxBodies the most requests with a body read at once (each holds a worker thread while its client
 *     sends; keep it well under {@code server.tomcat.threads.max}, 200 by default)
 * @param maxBodiesPerAddress the most requests with a body read at once from one client address
 * @param bodyMemory the heap that the request bodies read at once may take: each reserves {@link #HEAP_PER_BODY_BYTE}
 *     times its length (at most {@code max-body-bytes}: an import is parsed a line at a time) before it is read;
 *     unset: half of the heap ({@code Runtime.maxMemory()})
 */
@ConfigurationProperties("perftrack.limits")
@Validated
public record LimitsProperties(
    @DefaultValue("16MB") @NotNull DataSize maxBodyBytes,
    @DefaultValue("1GB") @NotNull DataSize maxImportBytes,
    @DefaultValue("1000000") @Min(1) long maxImportLines,
    @DefaultValue("100") @Min(1) int maxBodies,
    @DefaultValue("32") @Min(1) int maxBodiesPerAddress,
    DataSize bodyMemory) {

  /**
   * The heap a request body takes while it is parsed, per byte of it: a JSON sample such as {@code 48.213,} is 7
   * bytes and becomes a boxed double in a list (about 24 bytes), and a tool file is held whole while converted.
   */
  public static final int HEAP_PER_BODY_BYTE = 6;

  public LimitsProperties {
    if (maxBodyBytes != null && maxBodyBytes.toBytes() <= 0) {
      throw new IllegalArgumentException("perftrack.limits.max-body-bytes must be positive, got " + maxBodyBytes);
    }
    if (bodyMemory != null && bodyMemory.toBytes() <= 0) {
      throw new IllegalArgumentException("perftrack.limits.body-memory must be positive, got " + bodyMemory);
    }
    if (maxImportBytes != null && maxImportBytes.toBytes() <= 0) {
      throw new IllegalArgumentException("perftrack.limits.max-import-bytes must be positive, got " + maxImportBytes);
    }
  }

  /** The heap the bodies read at once may take: {@code body-memory}, or half of the heap when unset. */
  public long bodyMemoryBytes() {
    return bodyMemory != null ? bodyMemory.toBytes() : Runtime.getRuntime().maxMemory() / 2;
  }

  /** What a body of {@code declaredLength} bytes (-1: unknown) reserves of {@link #bodyMemoryBytes()}. */
  public long heapOf(long declaredLength) {
    long max = maxBodyBytes.toBytes();
    long bytes = declaredLength < 0 ? max : Math.min(declaredLength, max);
    return Math.min(bytes * HEAP_PER_BODY_BYTE, bodyMemoryBytes());
  }

  /** The body limit of a request to {@code path}. */
  public long bodyLimit(String path) {
    return path.endsWith("/runs:import") ? maxImportBytes.toBytes() : maxBodyBytes.toBytes();
  }
}
