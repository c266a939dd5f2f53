package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Service;

/**
 * Judges a branch's build (a pull request's) with the same detection as the default branch: each series' default
 * history up to the start point (the window detection would read there), with the build's values as one more
 * version after it. Reads only: the default branch's points, regressions and stamps are never written, so a branch
 * cannot change what the default branch shows.
 */
@Service
public class BranchJudge {

  /**
   * One result's verdict against the start point: the step detection found at the build ({@code baselineVersion}
   * its baseline), {@link Verdict#INCONCLUSIVE} for a change detection would wait one more build for, else
   * {@link Verdict#UNCHANGED} against the last default version of the history. {@code verdict} is null for a
   * secondary metric (not judged, shown beside its benchmark); {@link Verdict#INSUFFICIENT_DATA} when the default
   * branch has no history of the series up to the start point.
   */
  public record Judged(Verdict verdict, String baselineVersion, Double baselineValue, double value, Double ratio,
      Double pValue) {}

  private final WindowRead windows;
  private final BenchmarkSettings settings;
  private final DetectionProperties properties;
  private final Detector detector = new Detector();

  BranchJudge(WindowRead windows, BenchmarkSettings settings, DetectionProperties properties) {
    this.windows = windows;
    this.settings = settings;
    this.properties = properties;
  }

  /**
   * @param startSortKey the start point's sort key: the history is every default version up to and including it
   * @param seriesIds the default series of each result (same machine)
   * @param values each result's values in its series' unit
   */
  public List<Judged> judge(long productId, String startSortKey, List<Long> seriesIds,
      List<StoredRun.Values> values) {
    if (seriesIds.isEmpty()) {
      return List.of();
    }
    int side = 2 * properties.window();
    // a key just after the start point's: the window's points before it are the history up to the start point
    VersionRef after = new VersionRef(-1, BUILD, startSortKey + '\u0001');
    Map<Long, WindowRead.Around> around = windows.around(seriesIds, after, side);
    Map<String, BenchmarkSettings.Setting> knobs = settings.forProduct(productId);
    DetectionSettings defaults = properties.defaults();
    Judged[] out = new Judged[seriesIds.size()];
    List<SeriesUpdate> updates = new ArrayList<>();
    List<Integer> judged = new ArrayList<>();
    for (int i = 0; i < seriesIds.size(); i++) {
      WindowRead.Around a = around.get(seriesIds.get(i));
      SeriesWindow w = a.window();
      List<VersionPoint> history = new ArrayList<>(w.points().subList(0, a.before()));
      VersionLevel build = RunPoints.pointOf(values.get(i));
      if (history.isEmpty()) {
        out[i] = new Judged(Verdict.INSUFFICIENT_DATA, null, null, build.level(), null, null);
      } else if (properties.isSecondary(w.metric())) {
        out[i] = against(null, history.get(history.size() - 1), build);
      } else {
        history.add(VersionPoint.summarized(BUILD, build));
        updates.add(new SeriesUpdate(new SeriesHistory(w.direction(), history), BUILD,
            Decisions.settingsFor(knobs, w.benchmark(), defaults)));
        judged.add(i);
      }
    }
    List<DetectionResult> results = detector.detectRun(updates);
    for (int k = 0; k < judged.size(); k++) {
      DetectionResult result = results.get(k);
      List<VersionPoint> points = updates.get(k).series().points();
      VersionLevel build = points.get(points.size() - 1).summary();
      // a change the default branch would report once one more build shows it: the build is judged once, so it
      // is inconclusive, not unchanged (it does not fail the check, as it does not fail a default-branch build)
      out[judged.get(k)] = result.steps().stream().filter(s -> s.version().equals(BUILD)).findFirst()
          .map(BranchJudge::of)
          .or(() -> result.waiting().stream().filter(s -> s.version().equals(BUILD)).findFirst()
              .map(s -> new Judged(Verdict.INCONCLUSIVE, s.baselineVersion(), s.baselineValue(), s.value(),
                  s.ratio(), s.pValue())))
          .orElseGet(() -> against(Verdict.UNCHANGED, points.get(points.size() - 2), build));
    }
    return List.of(out);
  }

  /** A result's level (what a verdict's {@code value} is) when it has no default series to be judged in. */
  public static double level(StoredRun.Values values) {
    return RunPoints.pointOf(values).level();
  }

  /** The build's name in the windows it is judged in: a control character no version name may hold. */
  private static final String BUILD = "\u0000build";

  private static Judged of(Step step) {
    Verdict verdict = step.kind() == Regression.Kind.REGRESSION ? Verdict.REGRESSION : Verdict.IMPROVEMENT;
    return new Judged(verdict, step.baselineVersion(), step.baselineValue(), step.value(), step.ratio(),
        step.pValue());
  }

  private static Judged against(Verdict verdict, VersionPoint last, VersionLevel build) {
    double base = last.summary().level();
    return new Judged(verdict, last.version(), base, build.level(), base == 0 ? null : build.level() / base, null);
  }
}
