package org.perftrack.wire;

import java.nio.charset.StandardCharsets;

/**
 * Whether a tool's JSON file was cut off (a copy that broke off, a full disk): the one fault the agent (Java 8,
 * without the converters) can name itself, so that {@code upload} refuses such a file before anything is sent.
 * Everything else about a tool's file the server's converter says when it gets it.
 */
public final class CutOff {

  private CutOff() {}

  /**
   * "truncated JSON: the file ends at line 212 inside an unfinished value" when the file is JSON and ends before
   * its root value does; null when it is whole, not JSON, or wrong in another way (for the converter to name).
   */
  public static String of(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    String start = text.trim();
    if (!start.startsWith("{") && !start.startsWith("[")) {
      return null;
    }
    int line = JsonShape.cutOffLine(text);
    return line < 0 ? null : "truncated JSON: the file ends at line " + line + " inside an unfinished value";
  }
}
