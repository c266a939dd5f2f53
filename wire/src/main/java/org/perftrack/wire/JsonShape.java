package org.perftrack.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads as much of a JSON text as it can into maps, lists, strings, doubles and booleans, and keeps what it
 * read when the text breaks off or goes wrong: enough to tell which tool wrote a file, also a truncated one,
 * without a JSON library (wire carries none). Not a validator: the converters
 * parse the file again, strictly.
 */
final class JsonShape {

  /** Deeper structures are not needed to tell a tool's file, and a bound keeps the recursion safe. */
  private static final int MAX_DEPTH = 48;

  private final String text;
  private int at;

  private JsonShape(String text) {
    this.text = text;
  }

  /** The root value (Map, List, String, Double, Boolean) or null when the text does not start like JSON. */
  static Object read(String text) {
    JsonShape reader = new JsonShape(text);
    Object[] root = new Object[1];
    try {
      reader.value(0, root, 0);
    } catch (Stop e) {
      // keep what was read: a truncated or odd file is still recognised by its start
    }
    return root[0];
  }

  /** The end of what could be read. */
  private static final class Stop extends Exception {
    private static final long serialVersionUID = 1L;

    Stop() {
      super(null, null, false, false);
    }
  }

  /** Reads one value into {@code slot[index]}, storing containers before filling them. */
  private void value(int depth, Object[] slot, int index) throws Stop {
    if (depth > MAX_DEPTH) {
      throw new Stop();
    }
    char c = next();
    if (c == '{') {
      Map<String, Object> map = new LinkedHashMap<>();
      slot[index] = map;
      object(depth, map);
    } else if (c == '[') {
      List<Object> list = new ArrayList<>();
      slot[index] = list;
      array(depth, list);
    } else if (c == '"') {
      slot[index] = string();
    } else {
      at--;
      slot[index] = literal();
    }
  }

  private void object(int depth, Map<String, Object> map) throws Stop {
    if (peek() == '}') {
      at++;
      return;
    }
    while (true) {
      if (next() != '"') {
        throw new Stop();
      }
      String key = string();
      if (next() != ':') {
        throw new Stop();
      }
      Object[] slot = new Object[1];
      map.put(key, null);
      try {
        value(depth + 1, slot, 0);
      } finally {
        map.put(key, slot[0]);
      }
      char c = next();
      if (c == '}') {
        return;
      }
      if (c != ',') {
        throw new Stop();
      }
    }
  }

  private void array(int depth, List<Object> list) throws Stop {
    if (peek() == ']') {
      at++;
      return;
    }
    while (true) {
      Object[] slot = new Object[1];
      try {
        value(depth + 1, slot, 0);
      } finally {
        if (slot[0] != null) {
          list.add(slot[0]);
        }
      }
      char c = next();
      if (c == ']') {
        return;
      }
      if (c != ',') {
        throw new Stop();
      }
    }
  }

  private String string() throws Stop {
    StringBuilder s = new StringBuilder();
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') {
        return s.toString();
      }
      if (c == '\\') {
        if (at >= text.length()) {
          throw new Stop();
        }
        char e = text.charAt(at++);
        if (e == 'u') {
          if (at + 4 > text.length()) {
            throw new Stop();
          }
          try {
            s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          } catch (NumberFormatException ex) {
            throw new Stop();
          }
          at += 4;
        } else {
          s.append(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e);
        }
      } else {
        s.append(c);
      }
    }
    throw new Stop();
  }

  /** A number, true, false, null, or the NaN and Infinity some tools write. */
  private Object literal() throws Stop {
    int start = at;
    while (at < text.length() && "{}[],:\" \t\r\n".indexOf(text.charAt(at)) < 0) {
      at++;
    }
    String word = text.substring(start, at);
    if (at >= text.length()) {
      throw new Stop(); // a number cut off is not a number we know
    }
    if (word.equals("true") || word.equals("false")) {
      return Boolean.valueOf(word);
    }
    if (word.equals("null")) {
      return null;
    }
    String unsigned = word.startsWith("+") || word.startsWith("-") ? word.substring(1) : word;
    if (unsigned.equals("NaN") || unsigned.equals("Infinity")) { // no regex: this runs for every number of an upload
      return word.contains("NaN") ? Double.NaN : word.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    try {
      return Double.valueOf(word);
    } catch (NumberFormatException e) {
      throw new Stop();
    }
  }

  private char next() throws Stop {
    skipSpace();
    if (at >= text.length()) {
      throw new Stop();
    }
    return text.charAt(at++);
  }

  private char peek() throws Stop {
    skipSpace();
    if (at >= text.length()) {
      throw new Stop();
    }
    return text.charAt(at);
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }
}
