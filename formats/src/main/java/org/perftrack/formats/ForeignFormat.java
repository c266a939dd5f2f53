package org.perftrack.formats;

import tools.jackson.databind.JsonNode;

/**
 * A file written by another benchmark tool. What every such converter does the same way lives here:
 * tag the run from the context, parse the whole file, refuse another tool's file by name; the
 * subclass only reads its tool's structure into the run.
 */
abstract class ForeignFormat implements ResultFormat {

  private final String name;
  private final String expected;

  /** @param expected what a file of this format looks like, for the message when it is not one */
  ForeignFormat(String name, String expected) {
    this.name = name;
    this.expected = expected;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final RunUpload convert(byte[] content, String sourceName, RunContext context) throws FormatException {
    ForeignRun run = ForeignRun.start(sourceName, name, context);
    JsonNode root = JsonInput.read(content, sourceName);
    if (!FormatSniffer.matches(name, root)) {
      throw FormatSniffer.wrongFormat(sourceName, name, root, expected);
    }
    read(root, run, sourceName);
    return run.build();
  }

  /** Adds the file's benchmarks, samples and attributes to {@code run}. */
  abstract void read(JsonNode root, ForeignRun run, String sourceName) throws FormatException;
}
