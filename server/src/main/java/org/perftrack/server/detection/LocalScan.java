package org.perftrack.server.detection;

import java.util.List;

import org.apache.commons.math3.special.Beta;

/**
 * The detector's view of one series around a changed version: the versions within 2 × window of it,
 * their levels and noise, and the candidate steps among the versions whose judgement can change
 * ({@code lo..hi}: every version whose before- or after-window contains the changed one).
 */
record LocalScan(SeriesUpdate update, Levels levels, NoiseModel noise, int lo, int hi,
         List<StepScan.Candidate> candidates, double[] pValues) {

  static LocalScan of(SeriesUpdate update) {
    Series series = update.series();
    int j = series.indexOf(update.changedVersion());
    if (j < 0) {
      throw new IllegalArgumentException("changedVersion " + update.changedVersion() + " is not in the series");
    }
    int w = update.settings().window();
    int from = Math.max(0, j - 2 * w);
    List<Point> local = series.points().subList(from, Math.min(series.points().size(), j + 2 * w + 1));
    if (update.settings().ignored() || local.size() < 2 || !Levels.allPositive(local)) {
      return null;
    }
    Levels levels = Levels.of(local);
    NoiseModel noise = NoiseModel.estimate(levels);
    double minEffect = Math.max(Math.log1p(update.settings().minChange()),
        update.settings().noiseMultiple() * noise.sigma());
    int jj = j - from;
    int lo = Math.max(1, jj - w + 1);
    int hi = Math.min(local.size() - 1, jj + w);
    List<StepScan.Candidate> inRange = new StepScan(levels.x(), noise.sigma(), w, minEffect).run().stream()
        .filter(c -> c.index() >= lo && c.index() <= hi).toList();
    double[] p = new double[inRange.size()];
    for (int i = 0; i < p.length; i++) {
      StepScan.Candidate c = inRange.get(i);
      p[i] = Math.min(1, c.positions() * twoSidedP(c.t(), noise.df()));
    }
    return new LocalScan(update, levels, noise, lo, hi, inRange, p);
  }

  static double twoSidedP(double t, double df) {
    return Beta.regularizedBeta(df / (df + t * t), df / 2, 0.5);
  }

  Step toStep(int i) {
    StepScan.Candidate c = candidates.get(i);
    double baseline = Math.exp(Robust.median(levels.x(), c.beforeFrom(), c.index()));
    double ratio = Math.exp(c.shift());
    Regression.Kind kind = update.series().direction().isWorse(c.shift()) ? Regression.Kind.REGRESSION : Regression.Kind.IMPROVEMENT;
    return new Step(levels.versions().get(c.index() - 1), levels.versions().get(c.index()),
        baseline, baseline * ratio, ratio, pValues[i], kind);
  }

  DetectionResult result(List<Step> steps) {
    return new DetectionResult(steps, levels.versions().get(lo), levels.versions().get(hi),
        levels.versions(), levels.values(), noise.sigma());
  }
}
