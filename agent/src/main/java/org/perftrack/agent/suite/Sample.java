package org.perftrack.agent.suite;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One sample as a suite program prints it:
 * {@code perftrack-sample value=0.47 unit=us iters=220000 elapsed=0.10 ctxt=7e-05 user=0.03 sys=0.43}.
 *
 * @param value the primary figure per operation (or MB/s)
 * @param ctxtPerOp system-wide context switches per operation; negative where the platform has no count
 * @param userPerOp user CPU per operation, in the benchmark's CPU unit
 * @param sysPerOp system CPU per operation, in the benchmark's CPU unit
 */
public final class Sample {
  private final double value;
  private final double ctxtPerOp;
  private final double userPerOp;
  private final double sysPerOp;

  public Sample(double value, double ctxtPerOp, double userPerOp, double sysPerOp) {
    this.value = value;
    this.ctxtPerOp = ctxtPerOp;
    this.userPerOp = userPerOp;
    this.sysPerOp = sysPerOp;
  }

  public double value() {
    return value;
  }

  public double ctxtPerOp() {
    return ctxtPerOp;
  }

  public double userPerOp() {
    return userPerOp;
  }

  public double sysPerOp() {
    return sysPerOp;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Sample)) {
      return false;
    }
    Sample o = (Sample) other;
    return Double.compare(value, o.value) == 0 && Double.compare(ctxtPerOp, o.ctxtPerOp) == 0 && Double.compare(userPerOp, o.userPerOp) == 0 && Double.compare(sysPerOp, o.sysPerOp) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(value, ctxtPerOp, userPerOp, sysPerOp);
  }

  @Override
  public String toString() {
    return "Sample[value=" + value + ", ctxtPerOp=" + ctxtPerOp + ", userPerOp=" + userPerOp + ", sysPerOp=" + sysPerOp + "]";
  }

  private static final String SAMPLE = "perftrack-sample ";
  private static final String CALIBRATED = "perftrack-calibrated ";

  /** The sample line in a program's output, if there is a well-formed one. */
  public static Optional<Sample> parse(String output) {
    for (String line : output.split("\n")) {
      if (line.startsWith(SAMPLE)) {
        Map<String, String> fields = fields(line.substring(SAMPLE.length()));
        try {
          double value = Double.parseDouble(fields.get("value"));
          if (!(value > 0) || Double.isInfinite(value)) {
            return Optional.empty();
          }
          return Optional.of(new Sample(value, number(fields, "ctxt"), number(fields, "user"), number(fields, "sys")));
        } catch (NullPointerException | NumberFormatException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  /** The iteration count of a program's calibration output. */
  public static OptionalLong parseIterations(String output) {
    for (String line : output.split("\n")) {
      if (line.startsWith(CALIBRATED)) {
        try {
          long iters = Long.parseLong(fields(line.substring(CALIBRATED.length())).get("iters"));
          return iters > 0 ? OptionalLong.of(iters) : OptionalLong.empty();
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }

  private static double number(Map<String, String> fields, String key) {
    String text = fields.get(key);
    return text == null ? -1 : Double.parseDouble(text);
  }

  private static Map<String, String> fields(String text) {
    Map<String, String> fields = new HashMap<>();
    for (String pair : text.trim().split("\\s+")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        fields.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return fields;
  }
}
