package org.perftrack.agent.profile;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** System calls counted by a tracer: name → calls, errors and seconds, as one traced run had them. */
final class Syscalls {

  /** One call's totals in one traced run. */
  static final class Count {
    final long calls;
    final long errors;
    final double seconds;

    Count(long calls, long errors, double seconds) {
      this.calls = calls;
      this.errors = errors;
      this.seconds = seconds;
    }

    Count plus(Count other) {
      return new Count(calls + other.calls, errors + other.errors, seconds + other.seconds);
    }
  }

  private Syscalls() {}

  /**
   * The summary table of Linux {@code strace -c}: {@code % time, seconds, usecs/call, calls, errors, syscall},
   * the errors column blank where there were none, a {@code total} line last.
   */
  static Map<String, Count> linux(String table) {
    Map<String, Count> counts = new LinkedHashMap<>();
    boolean body = false;
    for (String line : table.split("\n")) {
      String trimmed = line.trim();
      if (trimmed.startsWith("------")) {
        body = true;
        continue;
      }
      String[] t = trimmed.split("\\s+");
      if (!body || (t.length != 5 && t.length != 6) || "total".equals(t[t.length - 1])) {
        continue;
      }
      try {
        double seconds = Double.parseDouble(t[1]);
        long calls = Long.parseLong(t[3]);
        long errors = t.length == 6 ? Long.parseLong(t[4]) : 0;
        counts.merge(t[t.length - 1], new Count(calls, errors, seconds), Count::plus);
      } catch (NumberFormatException e) {
        // not a row of the table (a warning strace printed in between)
      }
    }
    return counts;
  }

  /**
   * Cygwin's {@code strace} output as its User's Guide describes it, one message a line: microseconds since the
   * previous message, microseconds since the process started (the first column is missing with {@code -d}),
   * {@code [thread]}, program, pid, then {@code function: message}, e.g.
   * {@code   31   12345 [main] bash 1234 fork: 0 = fork()}. Each traced function counts once per message; a message
   * {@code -1 = …} is an error; the first column is the time the message accounts for.
   */
  static Map<String, Count> cygwin(String trace) {
    Map<String, Count> counts = new LinkedHashMap<>();
    for (String line : trace.split("\n")) {
      Matcher m = CYGWIN_LINE.matcher(line);
      if (!m.matches()) {
        continue;
      }
      double seconds = m.group(2) == null ? 0 : Long.parseLong(m.group(1)) / 1e6;
      long error = m.group(4).startsWith("-1 = ") ? 1 : 0;
      counts.merge(m.group(3), new Count(1, error, seconds), Count::plus);
    }
    return counts;
  }

  private static final Pattern CYGWIN_LINE = Pattern.compile(
      "\\s*(-?\\d+)(\\s+-?\\d+)?\\s+\\[[^\\]]*\\]\\s+\\S+\\s+\\(?\\d+\\)?\\s+([A-Za-z_][\\w:~]*):\\s?(.*?)\\r?");
}
