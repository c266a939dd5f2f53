package org.perftrack.server.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.perftrack.formats.RunUpload;
import org.perftrack.formats.RunUpload.ResultUpload;
import org.perftrack.server.versions.VersionKey;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;

/** One transaction of an import: the runs of up to {@link ImportService#BATCH_RUNS} lines. */
final class ImportBatch {

  /** A parsed, valid line waiting for its batch. */
  record Pending(long line, RunUpload run, UUID id, String hash) {}

  /** A (product, machine, version) the import stored runs for, and the series they touched. */
  record Touched(UUID runId, long productId, long machineId, long versionId, String sortKey, Set<Long> seriesIds) {}

  private final RunStore runs;
  private final ImportStore store;
  private final Context context;

  ImportBatch(RunStore runs, ImportStore store, Context context) {
    this.runs = runs;
    this.store = store;
    this.context = context;
  }

  void store(List<Pending> batch) {
    Map<UUID, String> stored = store.storedHashes(batch.stream().map(Pending::id).toList());
    List<ImportStore.RunRow> rows = new ArrayList<>(batch.size());
    List<RunStore.RunResults> results = new ArrayList<>(batch.size());
    Map<UUID, Pending> byId = new HashMap<>();
    for (Pending p : batch) {
      String known = stored.getOrDefault(p.id(), context.hashesInFile.get(p.id()));
      if (known != null) {
        if (known.equals(p.hash())) {
          context.unchanged++;
        } else {
          context.fail(p.line(), p.run().id(), List.of(new FieldProblem("id", "was already stored with other"
              + " content; a changed run needs a new id")));
        }
        continue;
      }
      try {
        prepare(p, rows, results);
        context.hashesInFile.put(p.id(), p.hash());
        byId.put(p.id(), p);
      } catch (InvalidInput e) {
        context.fail(p.line(), p.run().id(), ImportService.problems(e));
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    Set<UUID> inserted = store.insertRuns(rows);
    context.unchanged += rows.size() - inserted.size(); // another request stored them first
    runs.copyResults(results.stream().filter(r -> inserted.contains(r.runId())).toList());
    for (ImportStore.RunRow row : rows) {
      if (inserted.contains(row.id())) {
        context.created++;
        touch(row, results.stream().filter(r -> r.runId().equals(row.id())).findFirst().orElseThrow(),
            byId.get(row.id()).run().version());
      }
    }
  }

  private void prepare(Pending p, List<ImportStore.RunRow> rows, List<RunStore.RunResults> results) {
    RunUpload run = p.run();
    long productId = context.productIds.computeIfAbsent(run.product(), runs::productId);
    long versionId = context.versionIds.computeIfAbsent(productId + "\u0000" + run.version(),
        k -> runs.versionId(productId, run.version()));
    long machineId = context.machineIds.computeIfAbsent(run.machine(), runs::machineId);
    RunStore.Resolved resolved = RunStore.resolve(run.results(), series(productId, machineId, run.results()));
    rows.add(new ImportStore.RunRow(p.id(), productId, versionId, machineId, run, p.hash()));
    results.add(new RunStore.RunResults(p.id(), versionId, resolved.results(), resolved.seriesIds()));
  }

  /** The series of these results from the import's cache, asking the database only for those it lacks. */
  private Map<String, RunStore.SeriesRow> series(long productId, long machineId, List<ResultUpload> results) {
    Map<String, RunStore.SeriesRow> known = context.series.computeIfAbsent(productId + "/" + machineId,
        k -> new HashMap<>());
    List<ResultUpload> missing = results.stream().filter(r -> !known.containsKey(RunStore.key(r))).toList();
    if (!missing.isEmpty()) {
      known.putAll(runs.seriesRows(productId, machineId, missing));
    }
    return known;
  }

  private void touch(ImportStore.RunRow row, RunStore.RunResults results, String version) {
    Touched t = context.touched.computeIfAbsent(row.productId() + "/" + row.machineId() + "/" + row.versionId(),
        k -> new Touched(row.id(), row.productId(), row.machineId(), row.versionId(), VersionKey.of(version),
            new LinkedHashSet<>()));
    t.seriesIds().addAll(results.seriesIds());
  }

  /** What an import has learned and done so far, across its batches. */
  static final class Context {
    private final Map<String, Long> productIds = new HashMap<>();
    private final Map<String, Long> versionIds = new HashMap<>();
    private final Map<RunUpload.MachineInfo, Long> machineIds = new HashMap<>();
    private final Map<String, Map<String, RunStore.SeriesRow>> series = new HashMap<>();
    private final Map<UUID, String> hashesInFile = new HashMap<>();
    private final Map<String, Touched> touched = new HashMap<>();
    private final List<ImportService.LineError> errors = new ArrayList<>();
    private int created;
    private int unchanged;
    private int failed;

    void fail(long line, String id, List<FieldProblem> problems) {
      failed++;
      if (errors.size() < ImportService.MAX_ERRORS_LISTED) {
        errors.add(new ImportService.LineError(line, id, problems.size() > 20 ? problems.subList(0, 20) : problems));
      }
    }

    /** After a batch rolled back: the ids it created, and its runs, are gone with it. */
    void forget(List<Pending> batch) {
      batch.forEach(p -> hashesInFile.remove(p.id()));
      productIds.clear();
      versionIds.clear();
      machineIds.clear();
      series.clear();
    }

    Map<String, Touched> touched() {
      return touched;
    }

    List<ImportService.LineError> errors() {
      return List.copyOf(errors);
    }

    int created() {
      return created;
    }

    int unchanged() {
      return unchanged;
    }

    int failed() {
      return failed;
    }
  }
}
