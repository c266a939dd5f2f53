package org.perftrack.server.alerts;

import java.util.regex.Pattern;

/** Shell-style patterns for subscription filters: {@code *} any run of characters, {@code ?} one; case-insensitive. */
final class Glob {

  private Glob() {}

  static boolean matches(String glob, String value) {
    if (glob == null || glob.isEmpty()) {
      return true;
    }
    return value != null && compile(glob).matcher(value).matches();
  }

  static Pattern compile(String glob) {
    StringBuilder re = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (char c : glob.toCharArray()) {
      if (c == '*' || c == '?') {
        re.append(Pattern.quote(literal.toString()));
        literal.setLength(0);
        re.append(c == '*' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    re.append(Pattern.quote(literal.toString()));
    return Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
  }
}
