package org.perftrack.server.detection.eval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.perftrack.server.changepoint.Claim;
import org.perftrack.server.changepoint.Posterior;
import org.perftrack.server.changepoint.Segment;
import org.perftrack.server.changepoint.SegmentModel;
import org.perftrack.server.detection.DetectionSettings;
import org.perftrack.server.detection.Direction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real Firefox windows with the sheriffs' verdicts ({@code ../shared/data/mozilla-dev/cases.jsonl}, read in place,
 * never copied): valid alerts found within ±5 (and ±1) revisions, invalid ones also flagged, hand-added ones found,
 * other flags; perftrack's detector (replayed upload by upload, as main judges) beside the change-point model (each
 * window cut into segments of {@link #SEGMENT} revisions, a new segment from each claimed step).
 * <pre>
 * bench/run-main.sh org.perftrack.server.detection.eval.RealWindows ../shared/data/mozilla-dev/cases.jsonl
 * </pre>
 */
public final class RealWindows {
  static final int SEGMENT = 30;

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args.length > 0 ? args[0] : "../shared/data/mozilla-dev/cases.jsonl");
    JsonMapper json = JsonMapper.builder().build();
    int[][] counts = new int[2][8];
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode c = json.readTree(line);
      List<Double> values = new ArrayList<>();
      c.get("points").forEach(p -> values.add(p.get("values").get(0).asDouble()));
      List<int[]> alerts = new ArrayList<>();
      c.get("alerts").forEach(a -> alerts.add(new int[] {a.get("index").asInt(),
          switch (a.get("group").asString()) { case "TP" -> 0; case "FP" -> 1; default -> 2; }}));
      double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
      score(counts[0], perftrack(v, c.get("lower_is_better").asBoolean()), alerts);
      score(counts[1], model(v), alerts);
    }
    String[] names = {"perftrack (main)", "change-point model"};
    for (int m = 0; m < 2; m++) {
      int[] n = counts[m];
      out(names[m], n);
    }
  }

  private static void out(String name, int[] n) {
    System.out.printf(Locale.ROOT, "%-20s valid found ±5 %d/%d (±1 %d), invalid flagged %d/%d, hand-added found %d/%d,"
        + " other flags %d, precision %.3f%n", name, n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7],
        n[0] + n[3] == 0 ? 0 : n[0] / (double) (n[0] + n[3]));
  }

  /** n: valid found, valid, valid within ±1, invalid flagged, invalid, hand-added found, hand-added, other flags. */
  static void score(int[] n, List<Integer> flags, List<int[]> alerts) {
    for (int[] a : alerts) {
      boolean near = flags.stream().anyMatch(f -> Math.abs(f - a[0]) <= 5);
      boolean close = flags.stream().anyMatch(f -> Math.abs(f - a[0]) <= 1);
      switch (a[1]) {
        case 0 -> {
          n[1]++;
          n[0] += near ? 1 : 0;
          n[2] += close ? 1 : 0;
        }
        case 1 -> {
          n[4]++;
          n[3] += near ? 1 : 0;
        }
        default -> {
          n[6]++;
          n[5] += near ? 1 : 0;
        }
      }
    }
    n[7] += (int) flags.stream().filter(f -> alerts.stream().noneMatch(a -> Math.abs(f - a[0]) <= 5)).count();
  }

  /** main's detector, upload by upload: the versions of the steps left open at the end. */
  static List<Integer> perftrack(double[] values, boolean lowerIsBetter) {
    List<String> versions = new ArrayList<>();
    double[][] samples = new double[values.length][];
    for (int k = 0; k < values.length; k++) {
      versions.add("1." + k);
      samples[k] = new double[] {values[k]};
    }
    LabeledSeries s = new LabeledSeries("REAL", lowerIsBetter ? Direction.LOWER_IS_BETTER
        : Direction.HIGHER_IS_BETTER, samples, List.of());
    Machine m = new Machine(versions, java.util.stream.IntStream.range(0, values.length).toArray(), List.of(s));
    return new OursReplay(DetectionSettings.DEFAULTS).run(m).open().get(0).stream().map(Detected::index).toList();
  }

  /** The model over segments of {@link #SEGMENT} revisions, each claimed step starting the next segment. */
  static List<Integer> model(double[] values) {
    SegmentModel model = SegmentModel.of(DetectionSettings.DEFAULTS.minChange());
    List<Integer> flags = new ArrayList<>();
    int start = 0;
    while (start < values.length - 2) {
      int end = Math.min(values.length, start + SEGMENT);
      List<Segment.Version> versions = new ArrayList<>();
      for (int k = start; k < end; k++) {
        versions.add(new Segment.Version("r" + k, List.of(new double[] {values[k]})));
      }
      Posterior p = model.judge(new Segment(versions, 0));
      List<Claim> claimed = p.claimed();
      if (claimed.isEmpty()) {
        if (end == values.length) {
          break;
        }
        start = Math.max(start + 1, end - SEGMENT / 2);
        continue;
      }
      int at = start + claimed.get(0).likeliest();
      flags.add(at);
      start = at;
    }
    return flags;
  }
}
