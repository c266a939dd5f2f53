package org.perftrack.server.regressions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.perftrack.server.series.SeriesQueries.VersionResults;

/** The raw samples of the baseline and of the version, sorted, one row per rank, and their summary. */
public record SamplesSideBySide(List<Row> rows, List<Row> summary) {

  /**
   * {@code base}/{@code head} null where one side has fewer samples; {@code count}: the row counts samples (n), its
   * numbers are no values of the metric's unit.
   */
  public record Row(String label, Double base, Double head, boolean count) {

    Row(String label, Double base, Double head) {
      this(label, base, head, false);
    }
  }

  /** Every value of the metric's unit on both sides (not the counts), to choose the unit they are shown in. */
  public List<Double> values() {
    List<Double> values = new ArrayList<>();
    for (Row row : summary) {
      if (!row.count()) {
        values.add(row.base());
        values.add(row.head());
      }
    }
    return values;
  }

  static SamplesSideBySide of(VersionResults base, VersionResults head) {
    double[] b = sorted(base);
    double[] h = sorted(head);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < Math.max(b.length, h.length); i++) {
      rows.add(new Row(String.valueOf(i + 1), i < b.length ? b[i] : null, i < h.length ? h[i] : null));
    }
    List<Row> summary = List.of(
        new Row("n", base == null ? null : (double) base.n(), head == null ? null : (double) head.n(), true),
        new Row("min", base == null ? null : base.min(), head == null ? null : head.min()),
        new Row("median", base == null ? null : base.median(), head == null ? null : head.median()),
        new Row("mean", base == null ? null : base.mean(), head == null ? null : head.mean()),
        new Row("max", base == null ? null : base.max(), head == null ? null : head.max()));
    return new SamplesSideBySide(rows, summary);
  }

  private static double[] sorted(VersionResults p) {
    if (p == null) {
      return new double[0];
    }
    double[] s = p.samples().clone();
    Arrays.sort(s);
    return s;
  }
}
