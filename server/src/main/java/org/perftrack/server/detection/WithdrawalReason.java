package org.perftrack.server.detection;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The sentence stored with a withdrawn record, so that a reader sees why it went away. */
final class WithdrawalReason {
  private WithdrawalReason() {
  }

  static String explain(RecordedRegression r, DetectionResult result) {
    List<String> versions = result.versions();
    int at = versions.indexOf(r.version());
    double[] later = Arrays.copyOfRange(result.levels(), at + 1, versions.size());
    String last = versions.get(versions.size() - 1);
    if (at >= 0 && later.length >= 1) {
      double level = Robust.median(later);
      boolean back = Math.abs(Math.log(level / r.baselineValue())) < Math.abs(Math.log(level / r.value()));
      if (back) {
        return String.format(Locale.ROOT, "reverted: versions %s..%s are back at %.4g (baseline %.4g),"
            + " so %s was one unusual session", versions.get(at + 1), last, level, r.baselineValue(), r.version());
      }
    }
    return String.format(Locale.ROOT, "no longer significant with the versions up to %s"
        + " (between-session noise ±%.1f %%)", last, 100 * result.noise());
  }
}
