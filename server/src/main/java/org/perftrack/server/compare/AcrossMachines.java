package org.perftrack.server.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.stats.Robust;

/**
 * The compare table over all machines, one row per benchmark/metric: how many machines say
 * regression, improvement, unchanged or not enough data, and the middle, lowest and highest ratio.
 * Twenty machines × fifty metrics would be a thousand rows nobody reads; the per-machine rows are one
 * click away (and all of them are in the CSV).
 */
record AcrossMachines(String benchmark, String metric, String unit, Direction direction, int machines, int regressions,
    int improvements, int unchanged, int inconclusive, int insufficient, double middleRatio, double lowestRatio, double highestRatio,
    Verdict verdict, List<CompareTable.Other> others) {

  public String verdictLabel() {
    return CompareTable.label(verdict);
  }

  public int verdictRank() {
    return CompareTable.rank(verdict);
  }

  static List<AcrossMachines> of(List<CompareTable.Row> rows) {
    Map<String, List<CompareTable.Row>> byMetric = new LinkedHashMap<>();
    for (CompareTable.Row r : rows) {
      byMetric.computeIfAbsent(r.benchmark() + '\u0000' + r.metric(), k -> new ArrayList<>()).add(r);
    }
    List<AcrossMachines> out = new ArrayList<>();
    byMetric.values().forEach(group -> out.add(ofMachines(group)));
    out.sort(Comparator.comparingInt(AcrossMachines::verdictRank).thenComparing(AcrossMachines::benchmark)
        .thenComparing(AcrossMachines::metric));
    return out;
  }

  private static AcrossMachines ofMachines(List<CompareTable.Row> group) {
    CompareTable.Row first = group.get(0);
    int reg = count(group, Verdict.REGRESSION);
    int imp = count(group, Verdict.IMPROVEMENT);
    int same = count(group, Verdict.UNCHANGED);
    int unsure = count(group, Verdict.INCONCLUSIVE);
    int none = group.size() - reg - imp - same - unsure;
    double[] ratios = group.stream().mapToDouble(CompareTable.Row::ratio).sorted().toArray();
    return new AcrossMachines(first.benchmark(), first.metric(), first.unit(), first.direction(), group.size(), reg,
        imp, same, unsure, none, Robust.median(ratios), ratios[0], ratios[ratios.length - 1],
        verdict(group.stream().map(CompareTable.Row::verdict).toList()), others(group));
  }

  /** The machines' verdicts as one: any machine that regressed makes it a regression, then improvement, … */
  private static Verdict verdict(List<Verdict> machines) {
    for (Verdict v : List.of(Verdict.REGRESSION, Verdict.IMPROVEMENT, Verdict.INCONCLUSIVE, Verdict.UNCHANGED)) {
      if (machines.contains(v)) {
        return v;
      }
    }
    return Verdict.INSUFFICIENT_DATA;
  }

  /**
   * The benchmark's other metrics over the machines, from each machine's row (its secondary metrics have no row of
   * their own here): the middle ratio of the machines that measure it, how many of the row's machines those are, and
   * the verdict as the row's: a regression when any machine's is one, then improvement, inconclusive, unchanged.
   */
  private static List<CompareTable.Other> others(List<CompareTable.Row> group) {
    Map<String, List<CompareTable.Other>> byMetric = new LinkedHashMap<>();
    group.forEach(r -> r.others().forEach(o -> byMetric.computeIfAbsent(o.metric(), k -> new ArrayList<>()).add(o)));
    List<CompareTable.Other> out = new ArrayList<>();
    byMetric.forEach((metric, each) -> {
      double[] ratios = each.stream().mapToDouble(CompareTable.Other::ratio).sorted().toArray();
      out.add(new CompareTable.Other(metric, Robust.median(ratios),
          verdict(each.stream().map(CompareTable.Other::verdict).toList()), each.size(), group.size()));
    });
    return out;
  }

  private static int count(List<CompareTable.Row> group, Verdict verdict) {
    return (int) CompareTable.count(group, verdict);
  }
}
