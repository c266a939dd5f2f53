package org.perftrack.formats;

import org.perftrack.wire.RunUpload;

/**
 * A file written by another benchmark tool. What every such converter does the same way lives here:
 * tag the run from the context, parse the whole file, refuse another tool's file by name; the
 * subclass only reads its tool's structure into the run.
 *
 * @param <T> what the file is parsed into (a JSON tree, lines of text, a folder's files)
 */
abstract class ForeignFormat<T> implements ResultFormat {

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
    if (content == null || JsonInput.blank(content)) {
      throw new FormatException(sourceName + ": the file is empty");
    }
    String seen = FormatSniffer.rejectOther(name, content, sourceName);
    T parsed = parse(content, sourceName);
    FormatSniffer.require(name, seen, sourceName, expected);
    read(parsed, run, sourceName);
    return run.build();
  }

  /** The whole file parsed, or {@link FormatException} saying where it is broken. */
  abstract T parse(byte[] content, String sourceName) throws FormatException;

  /** Adds the file's benchmarks, samples and attributes to {@code run}. */
  abstract void read(T parsed, ForeignRun run, String sourceName) throws FormatException;
}
