package org.perftrack.formats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What Java 8 lacks and the converters need (they run in the agent, on Java 8, too): Java 11's
 * {@code String.isBlank}, {@code strip} and {@code lines} with the same rules, and unmodifiable lists and sets.
 */
final class Text {

  private Text() {}

  /** Whether {@code s} is empty or only white space ({@link Character#isWhitespace}), as {@code isBlank}. */
  static boolean blank(String s) {
    return s.codePoints().allMatch(Character::isWhitespace);
  }

  /** {@code s} without leading and trailing white space ({@link Character#isWhitespace}), as {@code strip}. */
  static String strip(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && Character.isWhitespace(s.codePointAt(start))) {
      start += Character.charCount(s.codePointAt(start));
    }
    while (end > start && Character.isWhitespace(s.codePointBefore(end))) {
      end -= Character.charCount(s.codePointBefore(end));
    }
    return s.substring(start, end);
  }

  /** The lines of {@code s}, as {@code lines}: split at \n, \r or \r\n, without a last empty line. */
  static List<String> lines(String s) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n' || c == '\r') {
        lines.add(s.substring(start, i));
        if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
          i++;
        }
        start = i + 1;
      }
    }
    if (start < s.length()) {
      lines.add(s.substring(start));
    }
    return lines;
  }

  @SafeVarargs
  static <T> List<T> list(T... values) {
    return Collections.unmodifiableList(Arrays.asList(values.clone()));
  }

  static <T> List<T> copy(Collection<T> values) {
    return Collections.unmodifiableList(new ArrayList<>(values));
  }

  /** An unmodifiable map of the pairs given, in their order: key, value, key, value, … */
  @SuppressWarnings("unchecked")
  static <V> Map<String, V> map(Object... pairs) {
    Map<String, V> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put((String) pairs[i], (V) pairs[i + 1]);
    }
    return Collections.unmodifiableMap(map);
  }

  @SafeVarargs
  static <T> Set<T> set(T... values) {
    return Collections.unmodifiableSet(new HashSet<>(Arrays.asList(values)));
  }
}
