package org.perftrack.server.detection;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.perftrack.server.stats.Robust;
import org.perftrack.server.stats.StudentT;
import org.perftrack.wire.Quantities;

/**
 * Whether later data contradicts a stored step, and the sentence stored with it when it does. A step at a
 * version measured interleaved with its predecessor is judged on the interleaved pairs alone (levels of
 * different sessions on a loaded machine say nothing against it): withdrawn only when they no longer show
 * it. Any other step is withdrawn when the series went back: the versions after it sit near the old level
 * (reverted), or the version itself, measured again, sits there (the first session was a bad one); in both
 * cases by {@value #REVERT_Z} × the between-session noise away from the step's level; or a clear trend
 * explains the change (a slow drift seen through a window); or, where the step is {@value #SHAPE_Z} × the
 * noise or more, the later versions did not stay on the new level; or, with the versions now known, it is
 * no longer a step (neither in the scan's window nor on all the versions up to the steps around it). All of
 * these use the noise as the versions up to the step show it (what the step was
 * opened with), or the current estimate if smaller: a noise estimate that grew never withdraws a step.
 * The sentence writes the levels it names with the series' unit, as people read them ("back at 3.18 GB/s").
 */
final class WithdrawalReason {
  /** How far (in between-session noise) the contradicting level must lie from the step's level. */
  static final double REVERT_Z = 3.0;
  /** The levels' shape is believed against a step only when the step is this many times the noise. */
  static final double SHAPE_Z = 4.0;

  private WithdrawalReason() {
  }

  /**
   * A level named in a stored reason ("back at", "baseline", "recorded", "stay at") written as a bare number, as
   * reasons once were ("back at 3.180e+09"): a level already followed by its unit, or written with its digits grouped
   * ("back at 75,000 us"), does not match.
   */
  private static final Pattern BARE_LEVEL =
      Pattern.compile("(back at |baseline |recorded |stay at )(-?[0-9]+(?:\\.[0-9]+)?(?:e[+-][0-9]+)?)"
          + "(?=,(?![0-9])|\\)| \\(|$)");

  /** A ratio as reasons were once stored, with three decimals ("×1.004", "×0.970"). */
  private static final Pattern RAW_RATIO = Pattern.compile("\u00d7([0-9]+\\.[0-9]{3})(?![0-9])");
  /** A p-value as reasons were once stored, with two significant digits ("(p = 0.41)", "(p = 1.2e-05)"). */
  private static final Pattern RAW_P = Pattern.compile("\\(p = ([0-9]+(?:\\.[0-9]+)?(?:e[+-][0-9]+)?)\\)");
  /** The noise as reasons were once stored, with a space before the percent sign ("±0.5 %"). */
  private static final Pattern SPACED_PERCENT = Pattern.compile("(±[0-9]+(?:\\.[0-9]+)?) %");

  /**
   * A stored reason as people read it: the levels it names as bare numbers with the series' unit
   * ("back at 3.180e+09" of a B/s series reads "back at 3.18 GB/s"), its ratios and p-values as the pages word them
   * ("×0.970" reads "1.03× less", "(p = 0.41)" reads "(p = 0.410)"), its noise as the pages write percentages
   * ("±0.5 %" reads "±0.5%"); anything else as stored.
   */
  static String worded(String reason, String unit) {
    if (reason == null) {
      return null;
    }
    String levels = replace(BARE_LEVEL, reason, m -> m.group(1) + level(Double.parseDouble(m.group(2)), unit));
    String ratios = replace(RAW_RATIO, levels, m -> Quantities.ratio(Double.parseDouble(m.group(1))));
    String ps = replace(RAW_P, ratios, m -> "(" + Quantities.p(Double.parseDouble(m.group(1))) + ")");
    return replace(SPACED_PERCENT, ps, m -> m.group(1) + "%");
  }

  private static String replace(Pattern pattern, String text, java.util.function.Function<Matcher, String> by) {
    Matcher m = pattern.matcher(text);
    StringBuilder out = new StringBuilder(text.length() + 16);
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(by.apply(m)));
    }
    return m.appendTail(out).toString();
  }

  private static String level(double value, String unit) {
    return Quantities.quantity(value, unit);
  }

  /** The reason to withdraw {@code r}, or null when nothing in {@code result} contradicts it; levels in {@code unit}. */
  static String contradiction(RecordedRegression r, DetectionResult result, String unit) {
    List<String> versions = result.versions();
    int at = versions.indexOf(r.version());
    if (at < 0 || !(r.baselineValue() > 0) || !(r.value() > 0)) {
      return null;
    }
    double base = Math.log(r.baselineValue());
    double value = Math.log(r.value());
    DetectionResult.Interleaved paired = result.interleaved().get(r.version());
    if (paired != null) {
      return interleaved(r, paired, value - base);
    }
    double sigma = Math.max(Math.min(result.noise(), noiseUpTo(result, at)), NoiseModel.SIGMA_FLOOR);
    double minEffect = result.minEffect() * Math.min(1, sigma / Math.max(result.noise(), NoiseModel.SIGMA_FLOOR));
    double[] levels = Arrays.stream(result.levels()).map(Math::log).toArray();
    double now = levels[at];
    if (backAt(now, base, value, sigma, 1)) {
      return String.format(Locale.ROOT, "measured again, %s is back at %s (baseline %s, recorded %s),"
          + " so the first session was a bad one", r.version(), level(Math.exp(now), unit),
          level(r.baselineValue(), unit), level(r.value(), unit));
    }
    int end = nextStep(result, at, versions.size());
    if (end > at + 1) {
      double later = Robust.median(levels, at + 1, end);
      if (backAt(later, base, value, sigma, end - at - 1)) {
        return String.format(Locale.ROOT, "reverted: versions %s..%s are back at %s (baseline %s),"
            + " so %s was one unusual session", versions.get(at + 1), versions.get(end - 1),
            level(Math.exp(later), unit), level(r.baselineValue(), unit), r.version());
      }
    }
    return shape(r, result, levels, at, end, value - base, sigma, minEffect, unit);
  }

  /**
   * A step at a version measured next to its predecessor is judged on those sessions alone: levels of
   * different sessions on a loaded machine say nothing against it. Withdrawn only when the interleaved
   * evidence (a rerun of the pair included) now shows no step of that sign: less than half of the recorded
   * change and not significant at {@value LocalScan#VETO_P}, or the other way.
   */
  private static String interleaved(RecordedRegression r, DetectionResult.Interleaved paired, double recorded) {
    double along = paired.shift() * Math.signum(recorded);
    if (along < 0 && (paired.clean() || paired.p() <= LocalScan.VETO_P) || along < Math.abs(recorded) / 2
        && paired.p() > LocalScan.VETO_P && !paired.clean()) {
      return noSuchStep(r.baselineVersion(), r.version(), Math.exp(paired.shift()), paired.p(), Math.exp(recorded));
    }
    return null;
  }

  /** The reason of a step that its interleaved sessions no longer show, ratios and p as the pages word them. */
  static String noSuchStep(String baseline, String version, double roundByRound, double p, double recorded) {
    return String.format(Locale.ROOT, "measured interleaved with %s, %s shows no such step: %s round by round (%s),"
        + " recorded %s", baseline, version, Quantities.ratio(roundByRound), Quantities.p(p),
        Quantities.ratio(recorded));
  }

  /**
   * The between-session noise as the versions before {@code at} show it: what the step was judged with when
   * it was opened at the newest version (its own change is not noise). Later versions can make the current
   * estimate larger, never this.
   */
  static double noiseUpTo(DetectionResult result, int at) {
    int n = Math.max(at, 2);
    if (result.withinSe().length < n) {
      return result.noise();
    }
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = Math.log(result.levels()[i]);
    }
    Levels prefix = new Levels(result.versions().subList(0, n), x, Arrays.copyOf(result.withinSe(), n), 0);
    return NoiseModel.estimate(prefix).sigma();
  }

  private static String shape(RecordedRegression r, DetectionResult result, double[] x, int at, int end,
      double recorded, double sigma, double minEffect, String unit) {
    if (result.window() < 2) {
      return null;
    }
    int from = Math.max(previousStep(result, at), at - result.window());
    int to = Math.min(end, at + result.window());
    if (at - from < 1 || to - at < 1) {
      return null;
    }
    double[] scratch = new double[(at - from) * (to - at)];
    double shift = Robust.shift(x, from, at, at, to, scratch);
    double t = shift / (sigma * Math.sqrt(StepScan.HL_VARIANCE * (1.0 / (at - from) + 1.0 / (to - at))));
    StepScan.Candidate c = new StepScan.Candidate(at, from, to, shift, t, 0);
    if (StepChecks.clearDrift(c, x, sigma, minEffect, scratch)) {
      return String.format(Locale.ROOT, "a slow drift, not a step: with more versions the change at %s"
          + " is explained by a clear trend (between-session noise ±%.1f%%)", r.version(), 100 * sigma);
    }
    if (Math.abs(recorded) >= SHAPE_Z * sigma && (shift * recorded <= 0 || !StepChecks.persistent(c, x))) {
      return String.format(Locale.ROOT, "not persistent: the versions after %s did not stay at %s"
          + " (between-session noise ±%.1f%%)", r.version(), level(r.value(), unit), 100 * sigma);
    }
    // a step with only the newest few versions after it was reported on the newest version's own evidence
    double maxP = to == x.length && to - at <= StepChecks.TAIL ? Detector.NEWEST_MAX_P : Detector.MAX_P;
    if ((shift * recorded <= 0 || StudentT.twoSidedP(t, NoiseModel.HISTORY_DF) > maxP
        || !StepChecks.accepted(c, x, sigma, minEffect, scratch))
        && !PooledScan.holds(x, Math.max(previousStep(result, at), 0), at, end, minEffect,
            PooledScan.WITHIN_FLOOR * pooledWithinSe(result), new PooledScan.Within(result.withinSe(), 1), recorded,
            Detector.POOLED_MAX_P)) {
      return noLongerAStep(result.versions().get(result.versions().size() - 1), r.version(), Math.exp(shift),
          Math.abs(t), 100 * sigma);
    }
    return null;
  }

  /** The reason of a step the versions now known no longer show, its ratio as the pages word it. */
  static String noLongerAStep(String newest, String version, double ratio, double errors, double noisePercent) {
    return String.format(Locale.ROOT, "no longer a step with the versions up to %s: the change at %s is %s,"
        + " %.1f × its error with the between-session noise as it was up to %s (±%.1f%%)", newest, version,
        Quantities.ratio(ratio), errors, version, noisePercent);
  }

  private static double pooledWithinSe(DetectionResult result) {
    double[] se = result.withinSe();
    return new Levels(result.versions(), new double[se.length], se, 0).pooledWithinSe();
  }

  private static int previousStep(DetectionResult result, int at) {
    int from = 0;
    for (Step s : result.steps()) {
      int i = result.versions().indexOf(s.version());
      if (i < at && i > from) {
        from = i;
      }
    }
    return from;
  }

  /** Closer to the baseline than to the step's value, and clearly away from the value given the noise. */
  private static boolean backAt(double level, double base, double value, double sigma, int n) {
    double se = sigma * Math.sqrt(StepScan.MEDIAN_VARIANCE / n + 1);
    return Math.abs(level - base) < Math.abs(level - value) && Math.abs(level - value) >= REVERT_Z * se;
  }

  /** The first version after {@code at} where the result sees another step (the later levels end there). */
  private static int nextStep(DetectionResult result, int at, int size) {
    int end = size;
    for (Step s : result.steps()) {
      int i = result.versions().indexOf(s.version());
      if (i > at && i < end) {
        end = i;
      }
    }
    return end;
  }
}
