package org.perftrack.formats;

import org.perftrack.wire.FormatGuess;

/**
 * The converters' side of {@link FormatGuess}: a file sent with the wrong format gets "this looks like a
 * Google Benchmark file, not hyperfine" rather than a list of missing fields.
 */
final class FormatSniffer {

  private FormatSniffer() {}

  static String label(String format) {
    return FormatGuess.label(format);
  }

  /**
   * Throws when the file looks like another tool's, before it is parsed (another tool's file may not even be
   * JSON); returns the format it looks like, or null.
   */
  static String rejectOther(String format, byte[] content, String source) throws FormatException {
    String seen = FormatGuess.guess(content);
    if (seen != null && !seen.equals(format)) {
      throw new FormatException(source + ": this looks like a " + label(seen) + " file, not "
          + label(format) + " (use format '" + seen + "')");
    }
    return seen;
  }

  /** After parsing: throws unless the file was recognised as {@code format}. */
  static void require(String format, String seen, String source, String expectedShape) throws FormatException {
    if (!format.equals(seen)) {
      throw new FormatException(source + ": not a " + label(format) + " file: expected " + expectedShape);
    }
  }
}
