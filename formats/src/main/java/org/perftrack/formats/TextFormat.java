package org.perftrack.formats;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A tool's text output, read line by line. Such output has no closing bracket to tell a cut-off file, but a
 * tool always ends its last line: a last result line without its line break is refused as truncated, or, for a
 * format whose lines stand alone ({@link #keepsWholeLines}), left out: the lines end with one {@link #CUT} line
 * saying which, for {@code read} to note.
 */
abstract class TextFormat extends ForeignFormat<List<String>> {

  TextFormat(String name, String expected) {
    super(name, expected);
  }

  @Override
  final List<String> parse(byte[] content, String sourceName) throws FormatException {
    String text = new String(content, StandardCharsets.UTF_8);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    List<String> lines = Text.lines(text.replace("\r\n", "\n"));
    String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    if (!text.endsWith("\n") && isResultLine(last)) {
      String shown = "'" + (last.length() > 80 ? last.substring(0, 80) + "…" : last) + "'";
      if (!keepsWholeLines()) {
        throw new FormatException(sourceName + ": truncated: the file ends inside line " + lines.size()
            + " without its line break: " + shown);
      }
      List<String> whole = new java.util.ArrayList<>(lines.subList(0, lines.size() - 1));
      whole.add(CUT + "the file ends inside line " + lines.size() + ", left out: " + shown);
      return whole;
    }
    return lines;
  }

  /** The start of the last line {@link #parse} gives when it left a cut-off line out; the rest says which. */
  static final String CUT = "\u0000cut: ";

  /** Whether each result line stands alone, so that a cut-off last line is left out rather than the file refused. */
  boolean keepsWholeLines() {
    return false;
  }

  /** Whether a line holds a benchmark's figures (and so must not be the cut-off end of the file). */
  abstract boolean isResultLine(String line);

  /** A number as a tool prints it, with thousands separators ({@code 1,234.5}); {@code line} counts from 0. */
  static double printedNumber(String text, String source, int line) throws FormatException {
    try {
      return Double.parseDouble(text.replace(",", ""));
    } catch (NumberFormatException e) {
      throw new FormatException(source + ": line " + (line + 1) + ": '" + text + "' is not a number");
    }
  }
}
