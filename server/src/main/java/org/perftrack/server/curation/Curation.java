package org.perftrack.server.curation;

import org.perftrack.server.audit.Audit;
import java.util.List;
import java.util.UUID;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Rejudging;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.summaries.Raised;
import org.perftrack.server.summaries.Summaries;
import org.perftrack.server.web.Wording;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Excluding runs from judgement, deleting runs and versions (soft, with undo) and restoring them. Each change is one
 * transaction: the data moves, the affected series are judged again ({@link Rejudging}: a step that stood on the
 * removed data is withdrawn, one withdrawn because of it reopened, both saying who changed what), the summaries
 * follow and the change is written to the audit log. Mail goes only for steps never announced before.
 */
@Service
public class Curation {

  /** What a change did: the run or version it touched, its deletion (if any) and the steps it raised again. */
  public record Change(String target, Long deletionId, List<Regression> raised) {}

  private final CurationStore store;
  private final Rejudging rejudging;
  private final Summaries summaries;
  private final Audit audit;
  private final CurationProperties props;
  private final TransactionTemplate tx;

  Curation(CurationStore store, Rejudging rejudging, Summaries summaries, Audit audit, CurationProperties props,
      TransactionTemplate tx) {
    this.store = store;
    this.rejudging = rejudging;
    this.summaries = summaries;
    this.audit = audit;
    this.props = props;
    this.tx = tx;
  }

  /** Takes a run out of judgement (it stays stored and shown); {@code reason} is required. */
  public Change exclude(UUID id, String by, String reason) {
    return tx.execute(s -> {
      CurationStore.RunRow run = liveRun(id);
      if (run.excludedAt() != null) {
        throw new Conflict("run " + id + " is excluded already (by " + run.excludedBy() + ")");
      }
      List<List<Long>> pairs = store.pairs(List.of(id));
      store.setAside(List.of(id));
      store.exclude(id, by, reason);
      audit.record(by, "excluded", describe(run), reason);
      return new Change(describe(run), null, rejudge(pairs, "data excluded by " + by + " (" + reason + ")"));
    });
  }

  /** Counts an excluded run again. */
  public Change include(UUID id, String by) {
    return tx.execute(s -> {
      CurationStore.RunRow run = liveRun(id);
      if (run.excludedAt() == null) {
        throw new Conflict("run " + id + " is not excluded");
      }
      store.putBack(List.of(id));
      store.include(id);
      audit.record(by, "included", describe(run), "excluded before by " + run.excludedBy());
      return new Change(describe(run), null, rejudge(store.pairs(List.of(id)), "data included again by " + by));
    });
  }

  /** Deletes a run (restorable until purged). */
  public Change deleteRun(UUID id, String by) {
    return tx.execute(s -> {
      CurationStore.RunRow run = liveRun(id);
      String what = describe(run);
      long deletion = store.newDeletion("run", run.productId(), run.versionId(), id, what, 1, by);
      List<List<Long>> pairs = store.pairs(List.of(id));
      store.setAside(List.of(id));
      store.deleteRuns(deletion, List.of(id));
      audit.record(by, "deleted", what, "deletion " + deletion);
      return new Change(what, deletion, run.counts() ? rejudge(pairs, "data deleted by " + by) : List.of());
    });
  }

  /** Deletes a version of a product with all its runs (restorable until purged). */
  public Change deleteVersion(String product, String version, String by) {
    return tx.execute(s -> {
      CurationStore.VersionRow v = store.lockVersion(product, version)
          .orElseThrow(() -> new NotFound("no version " + version + " of product " + product));
      List<CurationStore.RunRow> runs = store.runsOfVersion(v.id());
      List<UUID> ids = runs.stream().map(CurationStore.RunRow::id).toList();
      String what = "version " + version + " of " + product + " (" + Wording.count(runs.size(), "run") + ")";
      long deletion = store.newDeletion("version", v.productId(), v.id(), null, what, runs.size(), by);
      List<List<Long>> pairs = store.pairs(ids);
      store.setAside(ids);
      store.deleteRuns(deletion, ids);
      store.deleteVersion(v.id(), deletion);
      audit.record(by, "deleted", what, "deletion " + deletion);
      return new Change(what, deletion, rejudge(pairs, "data deleted by " + by));
    });
  }

  /**
   * Deletes a product with everything measured for it (restorable until purged): one short statement that marks it,
   * however long its history; the pages and lists leave it out from then on, and the purge removes its rows.
   */
  public Change deleteProduct(String product, String by) {
    return tx.execute(s -> {
      CurationStore.ProductRow p = store.lockProduct(product).orElseThrow(() -> new NotFound("no product " + product));
      String what = "product " + product + " (" + Wording.count(p.versionCount(), "version") + ")";
      long deletion = store.newDeletion("product", p.id(), null, null, what, 0, by);
      store.deleteProduct(p.id(), deletion);
      audit.record(by, "deleted", what, "deletion " + deletion);
      return new Change(what, deletion, List.of());
    });
  }

  /** Deletes a machine with all its runs and its lab agent (restorable until purged); the pages leave it out. */
  public Change deleteMachine(String machine, String by) {
    return tx.execute(s -> {
      long id = store.lockMachine(machine).orElseThrow(() -> new NotFound("no machine " + machine));
      String what = "machine " + machine;
      long deletion = store.newDeletion("machine", null, null, null, what, 0, by);
      store.deleteMachine(id, deletion);
      audit.record(by, "deleted", what, "deletion " + deletion);
      return new Change(what, deletion, List.of());
    });
  }

  /**
   * Deletes a branch of a product with its builds (restorable until purged); its page and the lists leave it out. The
   * default branch is untouched: nothing of a branch ever entered it.
   */
  public Change deleteBranch(String product, String branch, String by) {
    return tx.execute(s -> {
      CurationStore.BranchRow b = store.lockBranch(product, branch)
          .orElseThrow(() -> new NotFound("product " + product + " has no branch " + branch));
      String what = describe(b);
      long deletion = store.newDeletion("branch", b.productId(), null, null, what, b.runs(), by);
      store.deleteBranch(b.id(), deletion);
      audit.record(by, "deleted", what, "deletion " + deletion);
      return new Change(what, deletion, List.of());
    });
  }

  /**
   * Deletes a lab agent (restorable until purged): the lab leaves it out, its heartbeats and claims are refused, and
   * its product and machine may be registered again (by any token); a job it was running returns to the queue.
   */
  public Change deleteLabAgent(long agentId, String by) {
    return tx.execute(s -> {
      CurationStore.AgentRow a = store.lockLabAgent(agentId).orElseThrow(() -> new NotFound("no agent " + agentId));
      String what = "lab agent " + agentId + " (" + a.product() + " on " + a.machine() + ")";
      long deletion = store.newDeletion("lab-agent", a.productId(), null, null, what, 0, by);
      store.setLabAgent(deletion, agentId);
      store.deleteLabAgent(agentId, deletion);
      store.releaseJobsOf(agentId);
      audit.record(by, "deleted", what, "deletion " + deletion);
      return new Change(what, deletion, List.of());
    });
  }

  /** Deletes a note on the charts (restorable until purged): the charts and lists leave it out. */
  public Change deleteAnnotation(long id, String by) {
    return tx.execute(s -> {
      CurationStore.AnnotationRow a = store.lockAnnotation(id).orElseThrow(() -> new NotFound("no annotation " + id));
      String what = "annotation " + id + " (" + a.text() + ")";
      long deletion = store.newDeletion("annotation", a.productId(), null, null, what, 0, by);
      store.deleteAnnotation(id, deletion);
      audit.record(by, "deleted", what, "deletion " + deletion);
      return new Change(what, deletion, List.of());
    });
  }

  /** Undoes the deletion of a note: its deletion's restore, for the one who deleted it (triage, not admin). */
  public Change restoreAnnotation(long id, String by) {
    long deletion = store.deletionOfAnnotation(id)
        .orElseThrow(() -> new NotFound("annotation " + id + " is not deleted (or is purged already)"));
    return restore(deletion, by);
  }

  static String describe(CurationStore.BranchRow b) {
    return "branch " + b.name() + " of " + b.product() + " (" + b.runs() + (b.runs() == 1 ? " build)" : " builds)");
  }

  /** Undoes a deletion that is not purged yet. */
  public Change restore(long deletionId, String by) {
    return tx.execute(s -> {
      CurationStore.Deletion d = store.lockDeletion(deletionId, keepSeconds())
          .orElseThrow(() -> new NotFound("no deletion " + deletionId + " (restored or purged already?)"));
      if ("lab-agent".equals(d.kind())) {
        store.liveLabAgentLike(d.labAgentId()).ifPresent(live -> {
          throw new Conflict("lab agent " + live + " was registered for the same product and machine since;"
              + " delete it first to restore this one");
        });
        store.deleteLabAgent(d.labAgentId(), null);
      }
      if ("annotation".equals(d.kind())) {
        store.deleteAnnotation(d.annotationId(), null);
      }
      List<UUID> counting = store.countingRunsOf(d.id());
      store.undelete(d.id());
      if ("machine".equals(d.kind())) {
        store.deleteMachine(d.machineId(), null);
      }
      if ("product".equals(d.kind())) {
        store.deleteProduct(d.productId(), null);
      }
      if ("version".equals(d.kind())) {
        store.deleteVersion(d.versionId(), null);
      }
      if ("branch".equals(d.kind())) {
        if (store.branchNameTaken(d.branchId())) {
          throw new Conflict("a new " + d.description().replaceFirst(" \\(.*", "") + " was started by a build after"
              + " the deletion; delete that one first to restore this one");
        }
        store.deleteBranch(d.branchId(), null);
        store.restartPruneClock(d.branchId());
      }
      store.putBack(counting);
      store.forgetDeletion(d.id());
      audit.record(by, "restored", d.description(), "deletion " + d.id() + " by " + d.deletedBy());
      return new Change(d.description(), d.id(), rejudge(store.pairs(counting), "data restored by " + by));
    });
  }

  /** The deletions that can still be restored, newest first. */
  public List<CurationStore.Deletion> recentlyDeleted(int limit) {
    return store.deletions(keepSeconds(), limit);
  }

  long keepSeconds() {
    return props.keepDeleted().toSeconds();
  }

  private CurationStore.RunRow liveRun(UUID id) {
    CurationStore.RunRow run = store.lockRun(id).orElseThrow(() -> new NotFound("no run " + id));
    if (run.deletionId() != null) {
      throw new NotFound("run " + id + " is deleted (restore it under Recently deleted)");
    }
    return run;
  }

  static String describe(CurationStore.RunRow run) {
    return "run " + run.id() + " of " + run.product() + " " + run.version() + " on " + run.machine();
  }

  /** Judges the changed series again; the summaries take what it raised (mail only for what was never announced). */
  private List<Regression> rejudge(List<List<Long>> pairs, String reason) {
    Rejudging.Outcome outcome = rejudging.changed(pairs, reason);
    summaries.afterJudging(Raised.again(outcome));
    return outcome.raised();
  }
}
