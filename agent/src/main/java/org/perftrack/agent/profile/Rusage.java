package org.perftrack.agent.profile;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The line of the suite's {@code rusage} wrapper:
 * {@code perftrack-rusage user=0.31 sys=0.02 nvcsw=2 nivcsw=0 minflt=93 majflt=0}, as the counters of a profile.
 */
final class Rusage {

  static final String VOLUNTARY = "voluntary-context-switches";
  static final String INVOLUNTARY = "involuntary-context-switches";
  static final String MINOR_FAULTS = "minor-page-faults";
  static final String MAJOR_FAULTS = "major-page-faults";
  static final String USER_US = "user-cpu-us";
  static final String SYS_US = "system-cpu-us";

  private Rusage() {}

  /** Counter name → value (CPU in microseconds); empty when the output has no such line. */
  static Map<String, Double> parse(String output) {
    Map<String, Double> counters = new LinkedHashMap<>();
    for (String line : output.split("\n")) {
      if (!line.startsWith("perftrack-rusage ")) {
        continue;
      }
      Map<String, String> f = new LinkedHashMap<>();
      for (String pair : line.substring("perftrack-rusage ".length()).trim().split("\\s+")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          f.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
      }
      try {
        counters.put(VOLUNTARY, Double.parseDouble(f.get("nvcsw")));
        counters.put(INVOLUNTARY, Double.parseDouble(f.get("nivcsw")));
        counters.put(MINOR_FAULTS, Double.parseDouble(f.get("minflt")));
        counters.put(MAJOR_FAULTS, Double.parseDouble(f.get("majflt")));
        counters.put(USER_US, Double.parseDouble(f.get("user")) * 1e6);
        counters.put(SYS_US, Double.parseDouble(f.get("sys")) * 1e6);
      } catch (NullPointerException | NumberFormatException e) {
        counters.clear();
      }
    }
    return counters;
  }
}
