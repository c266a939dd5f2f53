package org.perftrack.server.profiles;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Regression;
import org.springframework.stereotype.Component;

/**
 * What the profiles of a summary's members have in common, for the summary page ({@code @sharedProfiles} in its
 * template): "3 of 3 slower benchmarks gained 2 context switches per operation".
 */
@Component("sharedProfiles")
public class SharedProfiles {

  /** The most lines the summary shows. */
  static final int MAX_LINES = 5;

  /**
   * @param of the members (slower benchmarks) of the summary
   * @param profiled members whose two versions are profiled
   * @param waiting members whose profile is queued or running
   * @param lines what several profiled members share, the most shared first
   */
  public record Shared(int of, int profiled, int waiting, List<String> lines) {

    /** Whether the summary has anything to say about profiles. */
    public boolean any() {
      return profiled > 0 || waiting > 0;
    }
  }

  private final RegressionProfiles profiles;

  SharedProfiles(RegressionProfiles profiles) {
    this.profiles = profiles;
  }

  public Shared of(List<Regression> members) {
    List<Regression> standing = members.stream().filter(r -> r.status() != Regression.Status.WITHDRAWN).toList();
    List<ProfileComparison> done = new ArrayList<>();
    int waiting = 0;
    for (Regression r : standing) {
      ProfileComparison p = profiles.of(r);
      if (p.done()) {
        done.add(p);
      } else if (p.status() == ProfileStatus.QUEUED || p.status() == ProfileStatus.RUNNING) {
        waiting++;
      }
    }
    return new Shared(standing.size(), done.size(), waiting, lines(done, standing.size()));
  }

  /** Each change and the amounts per operation of the members that show it. */
  static List<String> lines(List<ProfileComparison> done, int of) {
    Map<String, List<Double>> changes = new LinkedHashMap<>();
    for (ProfileComparison p : done) {
      double switches = switches(p);
      if (Math.abs(switches) >= ProfileDiff.SWITCH_CHANGE) {
        changes.computeIfAbsent((switches > 0 ? "gained " : "lost ") + "%s context switches per operation",
            k -> new ArrayList<>()).add(Math.abs(switches));
      }
      for (ProfileComparison.SyscallChange s : p.changedSyscalls()) {
        double d = s.perOpVersion() - s.perOpBaseline();
        changes.computeIfAbsent("make %s " + (d > 0 ? "more " : "fewer ") + s.name() + "() calls per operation",
            k -> new ArrayList<>()).add(Math.abs(d));
      }
    }
    return changes.entrySet().stream()
        .sorted(Comparator.comparingInt((Map.Entry<String, List<Double>> e) -> -e.getValue().size()))
        .limit(MAX_LINES)
        .map(e -> line(e.getValue().size(), of, singular(e.getKey(), amount(e.getValue()))))
        .toList();
  }

  /** "2 of 3 slower benchmarks make 2 more read() calls per operation", "1 of 3 … makes …". */
  private static String line(int n, int of, String change) {
    return n + " of " + of + " slower " + (of == 1 ? "benchmark " : "benchmarks ")
        + (n == 1 && change.startsWith("make ") ? "makes " + change.substring(5) : change);
  }

  private static double switches(ProfileComparison p) {
    double change = 0;
    for (ProfileComparison.CounterChange c : p.counters()) {
      if (c.name().equals(ProfileDiff.VOLUNTARY) || c.name().equals(ProfileDiff.INVOLUNTARY)) {
        change += finite(c.perOpVersion()) - finite(c.perOpBaseline());
      }
    }
    return change;
  }

  private static double finite(double x) {
    return Double.isFinite(x) ? x : 0;
  }

  /** The change with its amount: "1 more read() call", "2 more read() calls". */
  private static String singular(String change, String amount) {
    String said = change.formatted(amount);
    return amount.equals("1") ? said.replace("context switches", "context switch").replace("() calls", "() call")
        : said;
  }

  /** "2", or "2 to 4" when the members differ. */
  private static String amount(List<Double> values) {
    String low = ProfileDiff.number(values.stream().min(Double::compare).orElseThrow());
    String high = ProfileDiff.number(values.stream().max(Double::compare).orElseThrow());
    return low.equals(high) ? low : low + " to " + high;
  }
}
