package org.perftrack.formats;

import org.perftrack.wire.RunUpload;

/**
 * A file format that other benchmark tools write (hyperfine, Google Benchmark, JMH, pytest-benchmark)
 * or our own JSON, turned into a {@link RunUpload}. A converter either parses the whole file or throws
 * {@link FormatException}: nothing is uploaded from a file that did not parse whole.
 */
public interface ResultFormat {

  /** The name used on the command line and in {@code ?format=}: perftrack, hyperfine, gbench, jmh, pytest-benchmark. */
  String name();

  /**
   * Converts one file.
   *
   * @param content the file's bytes
   * @param sourceName the file's name, for error messages
   * @param context product, version, machine and run id to tag the results with (the tool's file lacks them)
   */
  RunUpload convert(byte[] content, String sourceName, RunContext context) throws FormatException;
}
