package org.perftrack.server.summaries;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.stats.Robust;
import org.perftrack.server.web.Wording;

/** What a summary says of its members together: the hints they share and how many machines corroborate each step. */
final class SummaryFacts {

  /** A hint counts as moved when it changed by at least this factor either way. */
  static final double HINT_MOVED = 1.5;

  private SummaryFacts() {}

  /** Hints that moved in more than one member (or in the only one): "ctx-switches-per-op ×3000 in 9 of 9". */
  static List<Summary.SharedHint> sharedHints(List<Regression> members) {
    Map<String, List<Regression.Hint>> moved = new LinkedHashMap<>();
    for (Regression m : members) {
      m.hints().stream().filter(h -> h.ratio() != null && Math.abs(Math.log(h.ratio())) >= Math.log(HINT_MOVED))
          .forEach(h -> moved.computeIfAbsent(h.metric(), k -> new ArrayList<>()).add(h));
    }
    List<Summary.SharedHint> out = new ArrayList<>();
    moved.forEach((metric, hints) -> {
      if (hints.size() >= 2 || members.size() == 1) {
        double[] ratios = hints.stream().mapToDouble(Regression.Hint::ratio).sorted().toArray();
        double middle = Robust.median(ratios);
        out.add(new Summary.SharedHint(metric, hints.get(0).unit(), middle, hints.size(), members.size(),
            String.format(java.util.Locale.ROOT, "%s %s in %d of %d", metric, Wording.ratio(middle), hints.size(),
                members.size())));
      }
    });
    out.sort(Comparator.comparingInt(Summary.SharedHint::members).reversed());
    return out;
  }

  /** Per benchmark and metric: "on 3 of 3 machines", or "on 1 of 3 machines only" when the others did not see it. */
  static List<Summary.Corroboration> corroboration(List<Regression> members, int measured) {
    Map<String, List<Regression>> byMetric = members.stream().collect(Collectors.groupingBy(
        m -> m.benchmark() + '\u0000' + m.metric(), LinkedHashMap::new, Collectors.toList()));
    List<Summary.Corroboration> out = new ArrayList<>();
    byMetric.forEach((k, group) -> {
      int machines = (int) group.stream().map(Regression::machine).distinct().count();
      boolean alone = machines == 1 && measured > 1;
      out.add(new Summary.Corroboration(group.get(0).benchmark(), group.get(0).metric(), machines, measured, alone,
          "on " + machines + " of " + measured + " " + Wording.noun(measured, "machine") + (alone ? " only" : "")));
    });
    return out;
  }
}
