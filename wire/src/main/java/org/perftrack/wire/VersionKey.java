package org.perftrack.wire;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Turns a version name into a text key whose byte order (PostgreSQL {@code COLLATE "C"}, or
 * {@link String#compareTo}) is the order of the versions' meaning, so that SQL can {@code ORDER BY} it.
 *
 * <p>A name is split into numbers and words; anything else (. - _ + ~ space) only separates them.
 * Token by token: numbers compare by value ({@code 1.7.10 > 1.7.9}); a pre-release word
 * (alpha, beta, rc, pre, dev, …) sorts before the end of a name ({@code 2.1.0-rc1 < 2.1.0}); any
 * other word sorts after the end but before a number ({@code 1.7.8 < 1.7.8-s20101020 < 1.7.8-1}:
 * a snapshot comes after its release). Words compare case-insensitively. A name that is all words
 * still gets a stable order (alphabetical). A leading {@code v} or {@code V} before a digit, as git tags spell
 * versions, is not a word: {@code 1.0 < v1.0.4}, {@code v1.0.9 < v1.0.10}, and {@code v1.0.4} sorts right after
 * {@code 1.0.4}. Ties between different spellings of the same tokens
 * ({@code 1.05} and {@code 1.5}) are broken by the name itself, so the order is total. Shared by the server
 * (its {@code sort_key}) and the agent (it sends a session's runs in version order).
 */
public final class VersionKey {

  private static final Set<String> PRE_RELEASE = Collections.unmodifiableSet(new HashSet<>(Arrays.asList(
      "alpha", "a", "beta", "b", "rc", "cr", "pre", "preview", "dev", "m", "milestone", "snapshot", "ea")));

  // Kind markers: their byte order is the order of the kinds.
  private static final char PRE = '1';
  private static final char END = '2';
  private static final char WORD = '3';
  private static final char NUMBER = '4';
  // Ends a word; below every letter and digit, so "ab" < "abc".
  private static final char WORD_END = '!';

  private VersionKey() {}

  /** Orders version names by meaning: {@code 1.7.9 < 1.7.10}, {@code 2.1.0-rc1 < 2.1.0}. */
  public static int compare(String a, String b) {
    return of(a).compareTo(of(b));
  }

  public static String of(String name) {
    StringBuilder key = new StringBuilder(name.length() * 2 + 8);
    int n = name.length();
    int i = n > 1 && (name.charAt(0) == 'v' || name.charAt(0) == 'V') && isDigit(name.charAt(1)) ? 1 : 0;
    while (i < n) {
      char c = name.charAt(i);
      if (isDigit(c)) {
        int start = i;
        while (i < n && isDigit(name.charAt(i))) {
          i++;
        }
        appendNumber(key, name.substring(start, i));
      } else if (Character.isLetter(c)) {
        int start = i;
        while (i < n && Character.isLetter(name.charAt(i))) {
          i++;
        }
        String word = name.substring(start, i).toLowerCase(Locale.ROOT);
        key.append(PRE_RELEASE.contains(word) ? PRE : WORD).append(word).append(WORD_END);
      } else {
        i++;
      }
    }
    // The name itself breaks ties; a space sorts below every kind marker.
    return key.append(END).append(' ').append(name).toString();
  }

  private static void appendNumber(StringBuilder key, String digits) {
    int s = 0;
    while (s < digits.length() - 1 && digits.charAt(s) == '0') {
      s++;
    }
    String value = digits.substring(s);
    // length first (two digits; names are at most 128 characters) so that 10 > 9
    key.append(NUMBER).append(value.length() < 10 ? "0" : "").append(value.length()).append(value);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
