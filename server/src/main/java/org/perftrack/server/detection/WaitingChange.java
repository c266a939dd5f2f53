package org.perftrack.server.detection;

import java.util.Locale;

/**
 * A change for the worse at the version just uploaded that is not (yet) a regression: too small or too weak
 * against the series' noise to be reported by the upload that brought it, it waits for one more build, which
 * shows the new level too (then it is reported) or not. Not stored: the upload's answer says it.
 * {@code ratio} is {@code value / baselineValue}, the baseline being the typical level of the builds before;
 * {@code product} and {@code machine} tell apart the changes of an upload of several runs.
 */
public record WaitingChange(String product, String machine, String benchmark, String metric, String unit, String baselineVersion, String version,
    double baselineValue, double value, double ratio, double pValue, String note) {

  /** What the answer says of every waiting change. */
  public static final String NOTE = "waiting for one more build";

  static WaitingChange of(SeriesWindow w, Step step) {
    return new WaitingChange(w.product(), w.machine(), w.benchmark(), w.metric(), w.unit(), step.baselineVersion(), step.version(),
        step.baselineValue(), step.value(), step.ratio(), step.pValue(), NOTE);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s %s: %s -> %s x%.3f (%s)", benchmark, metric, baselineVersion, version,
        ratio, note);
  }
}
