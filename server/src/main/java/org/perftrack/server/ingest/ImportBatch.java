package org.perftrack.server.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.perftrack.wire.RunUpload;
import org.perftrack.server.detection.ImportJudging;
import org.perftrack.server.detection.Rejudging;
import org.perftrack.server.detection.StoredRun;
import org.perftrack.wire.VersionKey;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;

/**
 * One transaction of an import: the runs of up to {@link ImportService#BATCH_RUNS} lines.
 *
 * <p>Size: {@code prepare} (about 65 lines) sorts one batch's lines into stored-before, new and bad in one pass, so
 * each line's ids are resolved once.
 */
final class ImportBatch {

  /**
   * A parsed, valid line waiting for its batch. Its content hash (the canonical JSON's, as an upload's) is made
   * when first needed: for a new run, on the store thread that inserts it, not on the request thread that parses.
   */
  static final class Pending {
    private final long line;
    private final String runId;
    private final UUID id;
    private volatile RunUpload run;
    private volatile String hash;
    private final long bytes;

    Pending(long line, RunUpload run, UUID id, long bytes) {
      this.line = line;
      this.run = run;
      this.runId = run.id();
      this.id = id;
      this.bytes = bytes;
    }

    /** The length of the line (or rows) the run was read from: what it weighs while it waits. */
    long bytes() {
      return bytes;
    }

    long line() {
      return line;
    }

    /** The parsed run; null once it is stored ({@link #release}). */
    RunUpload run() {
      return run;
    }

    /** The run's id as the line wrote it (kept for reports after the run itself is released). */
    String runId() {
      return runId;
    }

    UUID id() {
      return id;
    }

    String hash() {
      String h = hash;
      if (h == null) {
        RunUpload r = run;
        h = hash; // read again after the run: release() sets the hash before it drops the run
        if (h == null) {
          h = IngestService.contentHash(r);
          hash = h;
        }
      }
      return h;
    }

    /**
     * After its batch committed: only the id, line and hash are kept (to find a later line of the file repeating
     * it). The parsed run would otherwise stay in memory to the end of the import: 100 results of boxed samples a
     * run, thousands of runs, copied from one young generation to the next by every collection.
     */
    void release() {
      hash();
      run = null;
    }
  }

  /** A (product, machine, version) the import stored runs for, and the series they touched. */
  record Touched(UUID runId, long productId, long machineId, long versionId, String sortKey, Set<Long> seriesIds) {}

  private final RunStore runs;
  private final ImportStore store;
  private final Ids ids;
  private final Context context;
  private final List<ImportStore.RunRow> rows = new ArrayList<>();
  private final List<RunStore.RunResults> results = new ArrayList<>();
  private final Map<UUID, Pending> byId = new HashMap<>();
  private final Set<List<Long>> readBack = new java.util.HashSet<>();
  /** What this batch's transaction did, told to the context only once it committed (a rollback counts nothing). */
  private int created;
  private int storedBefore;
  /** Lines refused in the transaction: their product, machine or version was deleted while the batch waited. */
  private final Map<Pending, List<FieldProblem>> refused = new java.util.IdentityHashMap<>();
  private final List<Touched> touched = new ArrayList<>();

  private final ImportJudging detection;
  private final Rejudging rejudging;

  ImportBatch(RunStore runs, ImportStore store, Ids ids, ImportJudging detection, Rejudging rejudging,
      Context context) {
    this.detection = detection;
    this.rejudging = rejudging;
    this.runs = runs;
    this.store = store;
    this.ids = ids;
    this.context = context;
  }

  /**
   * Before the batch's transaction: skips the runs stored already (or earlier in the file), and resolves the ids
   * of the others ({@link Ids}: new products, versions, machines and series are committed at once). A line whose
   * results do not fit their series is a bad line and creates nothing.
   */
  void prepare(List<Pending> batch) {
    Map<UUID, ImportStore.Stored> stored = store.storedHashes(batch.stream().map(Pending::id).toList());
    Map<Pending, Ids.RunIds> fitting = new java.util.IdentityHashMap<>(); // a record's hash would hash the whole run
    List<Pending> order = new ArrayList<>();
    List<List<FieldProblem>> deleted = ids.deletedNames(batch.stream().map(Pending::run).toList());
    int index = -1;
    for (Pending p : batch) {
      index++;
      if (deleted.get(index) != null) {
        context.fail(p.line(), p.runId(), deleted.get(index));
        continue;
      }
      Pending earlier = stored.containsKey(p.id()) ? null : context.hashesInFile.get(p.id());
      String inFile = earlier == null ? null : earlier.hash();
      ImportStore.Stored before = stored.get(p.id());
      String known = before != null ? before.hash() : inFile;
      if (known != null) {
        if (known.equals(p.hash()) && inFile != null) {
          context.copyInFile(p);
        } else if (known.equals(p.hash())) {
          context.addUnchanged(1);
          context.unchangedAt(before.place());
        } else {
          context.fail(p.line(), p.runId(), List.of(new FieldProblem("id", "was already stored with other"
              + " content; a changed run needs a new id")));
        }
        continue;
      }
      try {
        fitting.put(p, ids.resolveSeries(p.run()));
        order.add(p);
        context.hashesInFile.put(p.id(), p);
      } catch (InvalidInput e) {
        context.fail(p.line(), p.runId(), ImportService.problems(e));
      } catch (RuntimeException e) {
        failed(p, e);
      }
    }
    // the new versions of the lines that fit their series, in one statement per product (a history brings many
    // new versions: one commit for them all); a line that does not fit created nothing
    Map<String, Set<String>> versionsByProduct = new LinkedHashMap<>();
    order.forEach(p -> versionsByProduct.computeIfAbsent(p.run().product(), k -> new LinkedHashSet<>())
        .add(p.run().version()));
    try {
      versionsByProduct.forEach(ids::preloadVersions);
    } catch (RuntimeException e) {
      order.forEach(p -> context.hashesInFile.remove(p.id())); // not stored: a later copy of a line is no duplicate
      throw e;
    }
    order.forEach(p -> {
      Ids.RunIds resolved = fitting.get(p);
      try {
        long versionId = ids.versionId(resolved.productId(), p.run().version());
        rows.add(new ImportStore.RunRow(p.id(), resolved.productId(), versionId, resolved.machineId(), p.run(),
            p::hash));
        results.add(new RunStore.RunResults(p.id(), versionId, resolved.series().results(),
            resolved.series().seriesIds()));
        byId.put(p.id(), p);
      } catch (RuntimeException e) {
        context.hashesInFile.remove(p.id());
        failed(p, e);
      }
    });
  }

  private void failed(Pending p, RuntimeException e) {
    ImportService.log.error("import: line {} could not be stored", p.line(), e);
    context.fail(p.line(), p.runId(), List.of(new FieldProblem("line",
        "could not be stored (the server log has the details)")));
  }

  /** In the batch's transaction: the runs in one statement, their results in one COPY. */
  void store() {
    if (rows.isEmpty()) {
      return;
    }
    Set<UUID> inserted = store.insertRuns(rows);
    storedBefore = rows.size() - inserted.size(); // another request stored them first
    refuseDeleted(inserted);
    runs.streamResults(results.stream().filter(r -> inserted.contains(r.runId())).toList());
    Map<List<Long>, List<StoredRun.Values>> values = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      ImportStore.RunRow row = rows.get(i);
      if (inserted.contains(row.id())) {
        created++;
        RunStore.RunResults r = results.get(i);
        touched.add(new Touched(row.id(), row.productId(), row.machineId(), row.versionId(),
            VersionKey.of(byId.get(row.id()).run().version()), new LinkedHashSet<>(r.seriesIds())));
        List<StoredRun.Values> v = IngestService.values(r.results());
        for (int k = 0; k < v.size(); k++) {
          values.computeIfAbsent(List.of(r.seriesIds().get(k), r.versionId()), x -> new ArrayList<>()).add(v.get(k));
        }
      }
    }
    // the detection points of what this batch stored, from its own values; pairs that had runs before are
    // summarised again from all their runs when detection runs at the end
    readBack.addAll(detection.onImportedValues(values));
    rejudging.imported(context.id(), touched.stream().map(Touched::runId).toList()); // judged at the import's end
  }

  /**
   * A deletion of a line's product, machine or version that was being written when {@link #prepare} checked: the
   * run's row waited for it (the deletion locks the row the run refers to) and sees it now. The line is refused as
   * if it came after (its row taken out again, nothing of it stored) and reported once the batch commits.
   */
  private void refuseDeleted(Set<UUID> inserted) {
    List<ImportStore.RunRow> fresh = rows.stream().filter(r -> inserted.contains(r.id())).toList();
    List<List<FieldProblem>> deleted = ids.deletedNames(fresh.stream().map(ImportStore.RunRow::run).toList());
    for (int i = 0; i < fresh.size(); i++) {
      if (deleted.get(i) != null) {
        refused.put(byId.get(fresh.get(i).id()), deleted.get(i));
        inserted.remove(fresh.get(i).id());
      }
    }
    if (!refused.isEmpty()) {
      store.deleteRuns(refused.keySet().stream().map(Pending::id).toList());
    }
  }

  /** The pending runs this batch was to store (to report them when its transaction failed). */
  List<Pending> pending() {
    return rows.stream().map(r -> byId.get(r.id())).toList();
  }

  /** After the batch's transaction committed: its runs count as created, and its versions are to be judged. */
  void committed() {
    synchronized (context) { // two batches store at once
      context.unchanged += storedBefore;
      context.created += created;
      for (Touched t : touched) {
        context.touched.computeIfAbsent(t.productId() + "/" + t.machineId() + "/" + t.versionId(), k -> t)
            .seriesIds().addAll(t.seriesIds());
      }
    }
    context.addReadBack(readBack);
    refused.forEach(context::refuse);
  }

  /**
   * What an import has learned and done so far, across its batches: batches are prepared in file order on the
   * request thread and stored two at a time on store threads, so what both change is synchronized.
   */
  static final class Context {
    /** The import's id on the batches it stored and judges at its end ({@code import_due.import_id}). */
    private final UUID id = UUID.randomUUID();
    private final Map<UUID, Pending> hashesInFile = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Touched> touched = new HashMap<>();
    private final Set<List<Long>> readBack = new java.util.HashSet<>();
    private final List<ImportService.LineError> errors = new ArrayList<>();
    private int created;
    private int unchanged;
    private int failed;

    /** Called by the request thread (bad lines) and the store thread (lines that could not be stored). */
    synchronized void fail(long line, String id, List<FieldProblem> problems) {
      failed++;
      if (errors.size() < ImportService.MAX_ERRORS_LISTED) {
        errors.add(new ImportService.LineError(line, id, problems.size() > 20 ? problems.subList(0, 20) : problems));
      }
    }

    /** Lines that repeat a run of an earlier line of the file (counted unchanged while that line's batch stands). */
    private final Map<UUID, List<Pending>> copies = new HashMap<>();

    synchronized void copyInFile(Pending p) {
      p.release(); // only its line and id are needed, to report it if the line it repeats is not stored
      unchanged++;
      copies.computeIfAbsent(p.id(), k -> new ArrayList<>()).add(p);
    }

    /**
     * After a batch rolled back: its runs are gone with it (the ids it used were committed before it), and a later
     * line repeating one of them, counted unchanged meanwhile (batches are checked while earlier ones store), was
     * not stored either.
     */
    synchronized void forget(List<Pending> batch) {
      for (Pending p : batch) {
        notStored(p, List.of(new FieldProblem("line",
            "could not be stored (the server log has the details); nothing of its batch was kept")));
      }
    }

    /** A line refused in its batch's transaction, which committed without it; later lines repeating it with it. */
    synchronized void refuse(Pending p, List<FieldProblem> problems) {
      fail(p.line(), p.runId(), problems);
      notStored(p, problems);
    }

    private void notStored(Pending p, List<FieldProblem> problems) {
      hashesInFile.remove(p.id());
      for (Pending copy : copies.getOrDefault(p.id(), List.of())) {
        unchanged--;
        fail(copy.line(), copy.runId(), problems);
      }
      copies.remove(p.id());
    }

    /** The (series, version) pairs whose points must be summarised again from all their runs. */
    synchronized Set<List<Long>> readBack() {
      return readBack;
    }

    synchronized void addReadBack(Set<List<Long>> pairs) {
      readBack.addAll(pairs);
    }

    synchronized void addUnchanged(int runs) {
      unchanged += runs;
    }

    /** Where runs found stored already were measured: a crash may have left them unjudged. */
    private final Set<List<Long>> unchangedPlaces = new java.util.HashSet<>();

    synchronized void unchangedAt(List<Long> machineAndVersion) {
      unchangedPlaces.add(machineAndVersion);
    }

    synchronized Set<List<Long>> unchangedPlaces() {
      return Set.copyOf(unchangedPlaces);
    }

    UUID id() {
      return id;
    }

    Map<String, Touched> touched() {
      return touched;
    }

    /** The bad lines in line order (parsing runs ahead of storing, so they were found out of order). */
    synchronized List<ImportService.LineError> errors() {
      return errors.stream().sorted(java.util.Comparator.comparingLong(ImportService.LineError::line)).toList();
    }

    synchronized int created() {
      return created;
    }

    synchronized int unchanged() {
      return unchanged;
    }

    synchronized int failed() {
      return failed;
    }
  }
}
