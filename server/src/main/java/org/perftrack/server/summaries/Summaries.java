package org.perftrack.server.summaries;

import org.perftrack.server.audit.Audit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.perftrack.server.alerts.AlertService;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The summaries' entry point. Ingest hands it the regressions an upload created, inside the upload's
 * transaction: each open regression joins the summary of its product and version (opened on first
 * need), and the alerts queue one mail per new summary and one follow-up when it grew.
 */
@Service
public class Summaries {

  /**
   * What an upload did to a summary ({@code opened} or {@code grew}), and the summary's product and version: a
   * session's answer, or a run that moved known regressions to an earlier version, names summaries of other
   * versions than its own run's.
   */
  public record Change(long id, String change, String url, String product, String version) {}

  static final int LIST_LIMIT = 200;
  /** What triage may set: a regression's triage statuses. */
  static final List<Regression.Status> STATUSES = Regression.Status.TRIAGE;
  /** What a list may ask for: also those detection withdrew. */
  static final List<Regression.Status> LISTED = List.of(Regression.Status.values());

  private final SummaryStore store;
  private final Regressions regressions;
  private final AlertService alerts;
  private final Audit audit;

  Summaries(SummaryStore store, Regressions regressions, AlertService alerts, Audit audit) {
    this.audit = audit;
    this.store = store;
    this.regressions = regressions;
    this.alerts = alerts;
  }

  /**
   * The one hand-off after judging (inside the judging's transaction): members that detection re-attributed follow
   * their regression to the summary of its new version, what {@code judged} raised joins its summaries (history
   * quietly, news announced by the alerts: one mail per summary, a per-run mail only for what joined none).
   */
  @Transactional
  public List<Change> afterJudging(Raised judged) {
    List<Change> changes = new ArrayList<>();
    if (!judged.quiet().isEmpty()) {
      changes.addAll(take(judged.run(), judged.seriesIds(), judged.quiet(), false));
    }
    if (!judged.announced().isEmpty() || judged.seriesIds() != null && !judged.seriesIds().isEmpty()) {
      changes.addAll(take(judged.run(), judged.seriesIds(), judged.announced(), true));
    }
    return changes;
  }

  private List<Change> take(UUID runId, List<Long> seriesIds, List<Regression> created, boolean announce) {
    Map<Long, Change> changes = new LinkedHashMap<>();
    followReattributed(runId, seriesIds).forEach(c -> changes.put(c.id(), c));
    if (created.isEmpty()) {
      return inOrder(changes);
    }
    Map<List<Long>, List<Long>> byVersion = new LinkedHashMap<>();
    for (SummaryStore.Candidate c : store.candidates(created.stream().map(Regression::id).toList())) {
      byVersion.computeIfAbsent(List.of(c.productId(), c.versionId()), k -> new ArrayList<>()).add(c.id());
    }
    Map<SummaryStore.Opened, List<Long>> joined = new LinkedHashMap<>();
    byVersion.forEach((key, ids) -> {
      SummaryStore.Opened s = store.openOrFind(key.get(0), key.get(1), runId);
      if (store.add(s.id(), ids, runId) > 0) {
        joined.put(s, ids);
      }
    });
    if (!announce) {
      joined.forEach((sum, ids) -> changes.putIfAbsent(sum.id(), change(sum.id(), sum.opened())));
      return inOrder(changes);
    }
    Set<Long> summarised = store.members(created.stream().map(Regression::id).toList());
    Set<Long> fresh = alerts.onRegressionsCreated(runId, created, summarised);
    joined.forEach((s, ids) -> {
      changes.putIfAbsent(s.id(), change(s.id(), s.opened()));
      if (ids.stream().anyMatch(fresh::contains)) { // a step announced before under another pair: no second alarm
        mail(s.id(), !s.opened());
      }
    });
    return inOrder(changes);
  }

  /** An answer's summaries, oldest first (as {@link #changedBy(UUID)} lists them again for a re-send). */
  private static List<Change> inOrder(Map<Long, Change> changes) {
    return changes.values().stream().sorted(Comparator.comparingLong(Change::id)).toList();
  }

  /**
   * Members whose regression detection re-attributed (a backfilled version moved the step) move to the
   * summary of the new version, opened if needed; a summary left without members is withdrawn. Moving
   * raises no mail of its own (the step was announced), except that a withdrawn summary's mail that
   * had not gone out yet is dropped and its members are announced with their new summary instead.
   */
  private List<Change> followReattributed(UUID runId, List<Long> seriesIds) {
    if (runId == null && seriesIds == null) {
      return List.of();
    }
    List<SummaryStore.Moved> moved = seriesIds == null ? store.moved(runId) : store.moved(seriesIds);
    if (moved.isEmpty()) {
      return List.of();
    }
    Map<List<Long>, List<SummaryStore.Moved>> byVersion = moved.stream().collect(Collectors.groupingBy(
        m -> List.of(m.productId(), m.versionId()), LinkedHashMap::new, Collectors.toList()));
    Map<Long, Set<SummaryStore.Opened>> leftFor = new LinkedHashMap<>();
    List<Change> changes = new ArrayList<>();
    byVersion.forEach((key, members) -> {
      SummaryStore.Opened to = store.openOrFind(key.get(0), key.get(1), runId);
      store.move(members.stream().map(SummaryStore.Moved::id).toList(), to.id(), runId);
      members.forEach(m -> leftFor.computeIfAbsent(m.fromSummary(), k -> new LinkedHashSet<>()).add(to));
      changes.add(change(to.id(), to.opened()));
    });
    leftFor.forEach((from, targets) -> {
      String versions = targets.stream().map(t -> store.find(t.id()).map(SummaryStore.Row::version).orElse("?"))
          .distinct().collect(Collectors.joining(", "));
      String reason = "detection re-attributed every member to another version pair (now " + versions + ")";
      if (store.membersLeft(from, targets.stream().map(SummaryStore.Opened::id).toList(), reason)
          && alerts.onSummaryWithdrawn(from)) {
        targets.forEach(t -> mail(t.id(), !t.opened()));
      }
    });
    return changes;
  }

  private void mail(long id, boolean grew) {
    find(id).ifPresent(summary -> alerts.onSummary(summary.id(), grew, summary.headline(), summary.url(),
        summary.members().stream().filter(m -> m.status() == Regression.Status.OPEN).toList()));
  }

  /** The summaries these uploads opened or grew: a session's runs, for the run page. */
  public List<Change> changedBy(List<UUID> runIds) {
    return store.changedBy(runIds).stream().map(c -> change(c.id(), c.opened())).toList();
  }

  /**
   * The summaries an upload opened or grew, said as its answer said them (for a re-sent run): "opened" for those it
   * opened, "grew" for the others, in the same order.
   */
  public List<Change> changedBy(UUID runId) {
    return changedBy(List.of(runId));
  }

  private Change change(long id, boolean opened) {
    Optional<SummaryStore.Row> row = store.find(id);
    return new Change(id, opened ? "opened" : "grew", url(id), row.map(SummaryStore.Row::product).orElse(null),
        row.map(SummaryStore.Row::version).orElse(null));
  }

  public Optional<Summary> find(long id) {
    return store.find(id).map(this::summary);
  }

  /** Newest version first, then the most recently grown. */
  public List<Summary> list(String product, String version, List<Regression.Status> statuses) {
    return store.list(blankToNull(product), blankToNull(version), statuses, LIST_LIMIT).stream().map(this::summary)
        .toList();
  }

  /** A list's {@code status} parameter: null or blank for open ones, "all" for any, else statuses separated by commas. */
  static List<Regression.Status> listed(String status) {
    if (status == null || status.isBlank()) {
      return List.of(Regression.Status.OPEN);
    }
    if (status.strip().equals("all")) {
      return LISTED;
    }
    return Arrays.stream(status.split(",")).map(s -> parse("status", s.strip(), LISTED, " or all")).toList();
  }

  /** A status triage may set, spelled as on the wire; a 400 naming {@code field} otherwise. */
  static Regression.Status triageStatus(String field, String wire) {
    return parse(field, wire, STATUSES, "");
  }

  private static Regression.Status parse(String field, String wire, List<Regression.Status> allowed, String more) {
    return allowed.stream().filter(s -> s.wire().equals(wire)).findFirst().orElseThrow(() -> new InvalidInput(field,
        "must be one of " + allowed.stream().map(Regression.Status::wire).collect(Collectors.joining(", ")) + more));
  }

  /**
   * Triage of a whole summary: its status and note, applied to every member except those in
   * {@code overrides} (regression id → its own status). Empty when there is no such summary.
   */
  @Transactional
  public Optional<Summary> triage(long id, Regression.Status status, String note,
      Map<Long, Regression.Status> overrides, String by) {
    if (!STATUSES.contains(status)) {
      throw new InvalidInput("status", "must be one of "
          + STATUSES.stream().map(Regression.Status::wire).collect(Collectors.joining(", ")));
    }
    Optional<SummaryStore.Row> row = store.find(id);
    if (row.isEmpty()) {
      return Optional.empty();
    }
    if (row.get().status() == Regression.Status.WITHDRAWN) {
      throw new Conflict("summary " + id + " was withdrawn (" + row.get().withdrawnReason()
          + "); triage the summaries its members moved to");
    }
    List<Regression> members = regressions.inSummary(id);
    for (Long member : overrides.keySet()) {
      if (members.stream().noneMatch(m -> m.id() == member)) {
        throw new InvalidInput("members." + member, "is not a member of summary " + id);
      }
    }
    store.triage(id, status, note, by);
    audit.record(by, "triaged", "summary " + id, status.wire() + (note == null ? "" : ": " + note));
    for (Regression m : members) {
      if (m.status() != Regression.Status.WITHDRAWN) {
        regressions.triage(m.id(), overrides.getOrDefault(m.id(), status), note, by);
      }
    }
    return find(id);
  }

  static String url(long id) {
    return "/summaries/" + id;
  }

  private Summary summary(SummaryStore.Row row) {
    List<Regression> all = regressions.inSummary(row.id()).stream()
        .sorted(Comparator.comparingDouble(Regression::severity).reversed()).toList();
    // what the summary says counts its standing members; a withdrawn one is listed, not counted
    List<Regression> standing = all.stream().filter(m -> m.status() != Regression.Status.WITHDRAWN).toList();
    List<Regression> members = standing.isEmpty() ? all : standing;
    List<String> baselines = members.stream().map(Regression::baselineVersion).distinct().toList();
    List<String> affected = members.stream().map(Regression::machine).distinct().sorted().toList();
    List<String> measured = new ArrayList<>(store.machinesMeasured(row.productId(), row.versionId(), baselines));
    affected.stream().filter(m -> !measured.contains(m)).forEach(measured::add);
    Regression worst = members.isEmpty() ? null : members.get(0);
    Regression typical = members.isEmpty() ? null : members.get(members.size() / 2);
    return new Summary(row.id(), row.product(), row.version(), baselines, row.status(), row.note(), row.triagedBy(),
        row.createdAt().toInstant(), row.updatedAt().toInstant(), affected, List.copyOf(measured),
        worst == null ? Double.NaN : worst.ratio(), typical == null ? Double.NaN : typical.ratio(),
        worst == null ? null : worst.benchmark(), SummaryFacts.sharedHints(members), SummaryFacts.corroboration(members, measured.size()),
        all, url(row.id()), row.withdrawnReason(), movedTo(row.movedTo()));
  }

  private static List<Long> movedTo(String ids) {
    return ids == null || ids.isEmpty() ? List.of() : Arrays.stream(ids.split(",")).map(Long::valueOf).toList();
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
