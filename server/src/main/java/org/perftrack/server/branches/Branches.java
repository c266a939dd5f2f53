package org.perftrack.server.branches;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.detection.BranchJudge;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.StoredRun;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.detection.WaitingChange;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.runs.RunReports;
import org.perftrack.server.web.Links;
import org.perftrack.wire.Quantities;
import org.perftrack.wire.RunUpload;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;

/**
 * Branches (a pull request's builds): a branch run is stored with its branch and judged against the default
 * branch's history up to its start point on the same machine ({@link BranchJudge}); the default branch's tables
 * are only read. Branches without a run for {@code perftrack.branches.prune-after} are deleted with their runs; an
 * admin deletes one sooner through curation (soft, restorable until purged).
 */
@Service
public class Branches {

  /**
   * One result of a branch run: in its default series' unit when the default branch has the series on this
   * machine ({@code seriesId} set), else as sent.
   */
  public record Result(RunUpload.ResultUpload result, Long seriesId, StoredRun.Values values) {}

  /**
   * A validated branch run, with what the default branch knows of it: the product and machine ids (null when the
   * default branch has none of that name) and its results.
   */
  public record Upload(UUID id, RunUpload run, String hash, Long productId, Long machineId, List<Result> results,
      Long tokenId) {}

  /** What an upload did; {@code created} false: the same run was stored before. */
  /** {@code inconclusive}: the changes the default branch would report once one more build shows them. */
  public record Outcome(UUID id, boolean created, String branch, String startPoint, List<Regression> regressions,
      List<WaitingChange> inconclusive) {}

  private final BranchStore store;
  private final BranchJudge judge;
  private final BranchesProperties properties;
  private final RunReports reports;
  private final Audit audit;

  Branches(BranchStore store, BranchJudge judge, BranchesProperties properties, RunReports reports, Audit audit) {
    this.audit = audit;
    this.reports = reports;
    this.store = store;
    this.judge = judge;
    this.properties = properties;
  }

  /** Stores and judges one branch run; call it inside the upload's transaction. */
  public Outcome store(Upload upload) {
    RunUpload run = upload.run();
    BranchStore.StartPoint start = startPoint(upload);
    if (store.onDefaultBranch(upload.id())) {
      throw new Conflict("run " + upload.id() + " is stored on the default branch; a branch run needs a new id");
    }
    if (store.contentHash(upload.id()).isPresent()) { // sent again (its branch may be deleted since: not revived)
      return again(upload);
    }
    if (!store.exists(upload.productId(), run.branch())) {
      refuseOverCaps(upload);
    }
    long branchId = store.branchId(upload.productId(), run.branch(), upload.tokenId());
    if (!store.insertRun(upload.id(), branchId, upload.machineId(), start, run, upload.hash())) {
      return again(upload);
    }
    List<BranchJudge.Judged> judged = judged(upload, start);
    store.insertResults(upload.id(), upload.results(), judged);
    prune();
    return new Outcome(upload.id(), true, run.branch(), start.name(), store.regressions(upload.id()),
        store.inconclusive(upload.id()));
  }

  /** The answer to a run stored before: the same, unless its content differs. */
  private Outcome again(Upload upload) {
    String stored = store.contentHash(upload.id()).orElseThrow();
    if (!stored.equals(upload.hash())) {
      throw new Conflict("run " + upload.id() + " was already stored with other content; a changed run needs a new id");
    }
    return new Outcome(upload.id(), false, upload.run().branch(), store.startPointOf(upload.id()),
        store.regressions(upload.id()), store.inconclusive(upload.id()));
  }

  private BranchStore.StartPoint startPoint(Upload upload) {
    RunUpload run = upload.run();
    String where = "product " + run.product() + " on machine " + run.machine().name();
    if (upload.productId() == null || upload.machineId() == null) {
      throw new InvalidInput("startPoint", "the default branch has no run of " + where
          + " to judge the branch against; upload a default-branch run of that machine first");
    }
    if (run.startPoint() != null) {
      return store.version(upload.productId(), run.startPoint()).orElseThrow(() -> new InvalidInput("startPoint",
          "product " + run.product() + " has no version " + run.startPoint() + " on the default branch"));
    }
    return store.newestOnMachine(upload.productId(), upload.machineId()).orElseThrow(() -> new InvalidInput(
        "startPoint", "the default branch has no run of " + where + " to start from; give startPoint"));
  }

  /** Each result's verdict, in the upload's order: the results without a default series have no history. */
  private List<BranchJudge.Judged> judged(Upload upload, BranchStore.StartPoint start) {
    List<Long> seriesIds = new ArrayList<>();
    List<StoredRun.Values> values = new ArrayList<>();
    for (Result r : upload.results()) {
      if (r.seriesId() != null) {
        seriesIds.add(r.seriesId());
        values.add(r.values());
      }
    }
    List<BranchJudge.Judged> found = judge.judge(upload.productId(), start.sortKey(), seriesIds, values);
    List<BranchJudge.Judged> out = new ArrayList<>(upload.results().size());
    int k = 0;
    for (Result r : upload.results()) {
      out.add(r.seriesId() != null ? found.get(k++)
          : new BranchJudge.Judged(Verdict.INSUFFICIENT_DATA, null, null, BranchJudge.level(r.values()), null,
              null));
    }
    return out;
  }

  /** A branch as lists show it: how many runs, and how many regressions its newest run showed. */
  public record Branch(String name, Instant createdAt, Instant lastRunAt, long runs, long latestRegressions,
      @JsonIgnore String page) {

    static Branch of(String product, BranchStore.Listed b) {
      return new Branch(b.name(), b.createdAt(), b.lastRunAt(), b.runs(), b.latestRegressions(), Branches.page(product,
          b.name()));
    }
  }

  /** The branch page's path (the branch's slashes kept: servers refuse an encoded slash). */
  public static String page(String product, String branch) {
    return "/products/" + Links.segment(product) + "/branches/" + Links.segments(branch);
  }

  /** One build of a branch with each metric's verdict against its start point, changed ones first. */
  public record Build(String id, String version, String machine, String startPoint, Instant receivedAt,
      List<RunReports.Row> results) {

    public long regressions() {
      return results.stream().filter(r -> r.verdict() == Verdict.REGRESSION).count();
    }
  }

  /** A branch with its newest builds. */
  public record Detail(String product, Branch branch, List<Build> builds) {}

  /** Builds a branch's page and API show: the newest, each with its verdicts. */
  static final int BUILDS_SHOWN = 50;

  /** Most branches one list shows ({@code limit}). */
  public static final int MAX_LIMIT = 1000;

  /**
   * A page of the product's branches, the most recently built first: {@code limit} after branch {@code after} (null:
   * from the first); {@code next} is the {@code after} of the next page, null on the last.
   */
  public record Page(List<Branch> items, String next) {}

  public Page list(String product, String after, int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInput("limit", "must be between 1 and " + Quantities.count(MAX_LIMIT) + ", got: " + limit);
    }
    long productId = productId(product);
    if (after != null && store.find(productId, after).isEmpty()) {
      throw new InvalidInput("after", "product " + product + " has no branch " + after);
    }
    List<BranchStore.Listed> rows = store.page(productId, after, limit + 1);
    List<Branch> items = rows.stream().limit(limit).map(b -> Branch.of(product, b)).toList();
    return new Page(items, rows.size() > limit ? items.get(limit - 1).name() : null);
  }

  /**
   * A run that would start one more branch of its product than {@code perftrack.branches.max-per-product}, or of its
   * token than {@code max-per-token}, is refused: one upload token made 20,000 branches, and the pages listing them
   * grew to megabytes.
   */
  private void refuseOverCaps(Upload upload) {
    long[] counts = store.counts(upload.productId(), upload.tokenId());
    if (counts[0] >= properties.maxPerProduct()) {
      throw new Conflict("product " + upload.run().product() + " has " + Quantities.count(counts[0]) + " branches, the"
          + " most it may have (perftrack.branches.max-per-product); delete merged ones or raise the limit",
          List.of(new FieldProblem("branch", "would be one more than perftrack.branches.max-per-product ("
              + Quantities.count(properties.maxPerProduct()) + ")")));
    }
    if (counts[1] >= properties.maxPerToken()) {
      throw new Conflict("the runs of this API token started " + Quantities.count(counts[1]) + " branches, the most"
          + " one token may (perftrack.branches.max-per-token); delete merged ones or raise the limit",
          List.of(new FieldProblem("branch", "would be one more than perftrack.branches.max-per-token ("
              + Quantities.count(properties.maxPerToken()) + ")")));
    }
  }

  public Optional<Detail> find(String product, String branch) {
    return store.find(productId(product), branch).map(b -> new Detail(product, Branch.of(product, b),
        store.builds(b.id(), BUILDS_SHOWN).stream().map(r -> new Build(r.id().toString(), r.version(), r.machine(),
            r.startPoint(), r.receivedAt(), reports.branchRows(r.id()))).toList()));
  }

  private long productId(String product) {
    return store.productId(product).orElseThrow(() -> new NotFound("no product " + product));
  }

  /** One build of a branch without its results: what a picker offers. */
  public record BuildLine(String id, String version, String machine, String startPoint, Instant receivedAt) {}

  /**
   * A branch's builds, newest first, without their results (at most {@value #BUILDS_LISTED}); empty when the product
   * has no such branch.
   */
  public Optional<List<BuildLine>> buildLines(String product, String branch) {
    return store.productId(product).flatMap(p -> store.find(p, branch)).map(b -> store.builds(b.id(), BUILDS_LISTED)
        .stream().map(r -> new BuildLine(r.id().toString(), r.version(), r.machine(), r.startPoint(), r.receivedAt()))
        .toList());
  }

  static final int BUILDS_LISTED = 500;

  /** The names of a product's {@code limit} most recently built branches; none for an unknown product. */
  public List<String> names(String product, int limit) {
    return store.productId(product).map(p -> store.page(p, null, limit).stream().map(BranchStore.Listed::name)
        .toList()).orElse(List.of());
  }

  /** Deletes the branches without a run for longer than {@code perftrack.branches.prune-after}; how many. */
  public int prune() {
    List<String> pruned = store.prune(Instant.now().minus(properties.pruneAfter()));
    pruned.forEach(b -> audit.record("perftrack", "pruned", b, "no run for " + properties.pruneAfter().toDays()
        + " days (perftrack.branches.prune-after)"));
    return pruned.size();
  }

  @EventListener(ApplicationReadyEvent.class)
  void pruneAtStart() {
    prune();
  }
}
