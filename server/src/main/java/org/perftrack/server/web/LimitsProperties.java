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
 * @param maxBodyBytes the largest API request body accepted; unset: 16 MB, or less when the heap is small (so that
 *     the body-memory budget holds at least one body of this size: {@link #HEAP_PER_BODY_BYTE} times it)
 * @param maxImportBytes the largest bulk import ({@code POST /api/v1/runs:import}), as sent and after gunzip
 * @param maxImportLines the most lines one import reads; the rest are reported as not read
 * @param maxBodies the most requests with a body read at once (each holds a worker thread while its client
 *     sends; keep it well under {@code server.tomcat.threads.max}, 200 by default)
 * @param maxBodiesPerAddress the most requests with a body read at once from one client address
 * @param bodyMemory the heap that the request bodies read at once may take: each reserves {@link #HEAP_PER_BODY_BYTE}
 *     times its length (at most {@code max-body-bytes}: an import holds at most two of its lines, each at most half
 *     of it) before it is read; unset: half of the heap ({@code Runtime.maxMemory()})
 */
@ConfigurationProperties("perftrack.limits")
@Validated
public record LimitsProperties(
    DataSize maxBodyBytes,
    @DefaultValue("1GB") @NotNull DataSize maxImportBytes,
    @DefaultValue("1000000") @Min(1) long maxImportLines,
    @DefaultValue("100") @Min(1) int maxBodies,
    @DefaultValue("32") @Min(1) int maxBodiesPerAddress,
    DataSize bodyMemory) {

  /**
   * The heap a request body may take while it is read and stored, per byte of it: a sample written {@code 1,} (2
   * bytes) becomes a boxed double in a list (about 20 bytes, more while the list grows), and a tool's file is held
   * whole while it is converted. One 16 MB body of such samples, alone in the server, kept 300 MB (upload) and 340 MB
   * ({@code ?format=hyperfine}) live after a collection ({@code LargeBodiesAttack} with one client): 19 and 21 bytes
   * per byte, what a collection saw; this leaves room for what it did not. An ordinary body ({@code 48.213,}) takes
   * about a sixth of it.
   */
  public static final int HEAP_PER_BODY_BYTE = 32;

  /** The largest body when {@code max-body-bytes} is unset and the heap is large enough. */
  public static final long DEFAULT_MAX_BODY_BYTES = 16L << 20;

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

  /** {@code max-body-bytes}, or when unset 16 MB, or the most that the body-memory budget holds one of. */
  @Override
  public DataSize maxBodyBytes() {
    if (maxBodyBytes != null) {
      return maxBodyBytes;
    }
    return DataSize.ofBytes(Math.max(1, Math.min(DEFAULT_MAX_BODY_BYTES, bodyMemoryBytes() / HEAP_PER_BODY_BYTE)));
  }

  /** The longest line of an import: half of {@code max-body-bytes} (an import holds at most two). */
  public int maxImportLineBytes() {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, maxBodyBytes().toBytes() / 2));
  }

  /** The heap the bodies read at once may take: {@code body-memory}, or half of the heap when unset. */
  public long bodyMemoryBytes() {
    return bodyMemory != null ? bodyMemory.toBytes() : Runtime.getRuntime().maxMemory() / 2;
  }

  /** What a body of {@code declaredLength} bytes (-1: unknown) reserves of {@link #bodyMemoryBytes()}. */
  public long heapOf(long declaredLength) {
    long max = maxBodyBytes().toBytes();
    long bytes = declaredLength < 0 ? max : Math.min(declaredLength, max);
    return Math.min(bytes * HEAP_PER_BODY_BYTE, bodyMemoryBytes());
  }

  /** The body limit of a request to {@code path}. */
  public long bodyLimit(String path) {
    return path.endsWith("/runs:import") ? maxImportBytes.toBytes() : maxBodyBytes().toBytes();
  }
}
