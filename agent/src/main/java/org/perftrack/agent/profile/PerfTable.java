package org.perftrack.agent.profile;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Self samples by function and module from {@code perf report --stdio --no-children --sort dso,sym -g none -n}:
 * rows {@code 99.30%   5356  write_64b   [.] main}; {@code [k]} marks kernel functions.
 */
final class PerfTable {

  private PerfTable() {}

  /** "module\tfunction" → samples. */
  static Map<String, Long> parse(String report) {
    Map<String, Long> samples = new LinkedHashMap<>();
    for (String line : report.split("\n")) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        samples.merge(m.group(2) + "\t" + m.group(3).trim(), Long.parseLong(m.group(1)), Long::sum);
      }
    }
    return samples;
  }

  private static final Pattern ROW =
      Pattern.compile("\\s*[0-9.]+%\\s+(\\d+)\\s+(\\S+)\\s+\\[[.kgu]\\]\\s+(\\S.*?)\\s*");
}
