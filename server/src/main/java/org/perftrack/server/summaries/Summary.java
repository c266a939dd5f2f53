package org.perftrack.server.summaries;

import java.time.Instant;
import java.util.List;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.web.Wording;

/**
 * One summary as the API, the pages and the mail show it: the version pair, its members (detection's
 * Regression records), the machines affected out of those that measured both versions, the worst
 * and typical ratio, the hints the members share, and per benchmark how many machines corroborate it.
 * {@code movedTo} names the summaries that members left for when detection re-attributed them; a
 * summary they all left is {@code withdrawn}, with {@code withdrawnReason}.
 */
public record Summary(long id, String product, String version, List<String> baselineVersions, Regression.Status status,
    String note, String triagedBy, Instant createdAt, Instant updatedAt, List<String> machinesAffected,
    List<String> machinesMeasured, double worstRatio, double typicalRatio, String worstBenchmark,
    List<SharedHint> hints, List<Corroboration> corroboration, List<Regression> members, String url,
    String withdrawnReason, List<Long> movedTo) {

  /** Another metric that moved with the members: "ctx-switches-per-op ×3000 in 9 of 9". */
  public record SharedHint(String metric, String unit, double ratio, int members, int of, String text) {}

  /** One benchmark and metric: on how many of the machines that measured the pair it regressed. */
  public record Corroboration(String benchmark, String metric, int machines, int of, boolean alone, String text) {}

  /**
   * The line a list, the home page and the mail subject show: the standing members (a withdrawn one is said
   * apart, never counted as a regression) on the machines they stand on.
   */
  public String headline() {
    return String.format(java.util.Locale.ROOT, "%s %s: %s%s on %d of %d %s, worst %s %s", product, version,
        Wording.count(standingMembers(), "regression"), withdrawnNote(), machinesAffected.size(),
        machinesMeasured.size(), Wording.noun(machinesMeasured.size(), "machine"), worstBenchmark,
        Wording.ratio(worstRatio));
  }

  /** "3 on 3 of 3 machines": standing members, and the machines affected of those that measured the pair. */
  public String spread() {
    return standingMembers() + withdrawnNote() + " on " + machinesAffected.size() + " of "
        + Wording.count(machinesMeasured.size(), "machine");
  }

  /** Members not withdrawn: open or triaged. */
  public int standingMembers() {
    return (int) members.stream().filter(m -> m.status() != Regression.Status.WITHDRAWN).count();
  }

  private String withdrawnNote() {
    int withdrawn = members.size() - standingMembers();
    return withdrawn == 0 ? "" : " (" + withdrawn + " withdrawn)";
  }

  /** The worst ratio worded: "×2.67", "×3000". */
  public String worst() {
    return Wording.ratio(worstRatio);
  }

  /**
   * Its standing members that may start at any of a run of versions, one for each place {@link Regression#place()}
   * says ("between 1.5.20-1 and 1.5.22-1 (most likely 1.5.21-1)"); empty when every standing member is placed
   * exactly.
   */
  public List<Regression> suspects() {
    java.util.Set<String> seen = new java.util.HashSet<>();
    return members.stream().filter(m -> m.status() != Regression.Status.WITHDRAWN && m.ranged())
        .filter(m -> seen.add(m.place())).toList();
  }

  public int openMembers() {
    return (int) members.stream().filter(m -> m.status() == Regression.Status.OPEN).count();
  }
}
