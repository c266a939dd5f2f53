package org.perftrack.server.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import jakarta.annotation.PreDestroy;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.perftrack.server.db.Json;
import org.perftrack.wire.Quantities;
import org.perftrack.wire.RunUpload;
import org.perftrack.server.alerts.AlertService;
import org.perftrack.server.summaries.Raised;
import org.perftrack.server.summaries.Summaries;
import org.perftrack.server.web.JsonProblems;
import org.perftrack.server.detection.ImportJudging;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Rejudging;
import org.perftrack.server.detection.StoredRun;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.JacksonException;

/**
 * Bulk import of a history (NDJSON, one run per line in the upload format). Runs are stored in batches, one
 * transaction and one COPY per batch; detection runs once at the end, reading each touched series once and judging
 * the touched versions in version order, so the regressions are those the runs would have opened one by one. Mail goes out only for steps at
 * the newest version of their series: an imported step of years ago stays an open regression, listed in the
 * daily digest, instead of a mail of its own. Bad lines are reported by number and the good ones kept; a run id
 * already stored with the same content is skipped, so importing a file twice changes nothing.
 */
@Service
public class ImportService {

  static final Logger log = LoggerFactory.getLogger(ImportService.class);

  /** Runs per transaction: big enough for COPY to pay, small enough that a failing batch costs little. */
  static final int BATCH_RUNS = 200;
  /** Bad lines listed in the answer; the rest are counted. */
  static final int MAX_ERRORS_LISTED = 1000;

  public record LineError(long line, String id, List<FieldProblem> problems) {}

  /**
   * What an import did. {@code lines} counts the lines read (a CSV file's header not among them);
   * {@code regressions} the regressions opened; {@code mailed} those a mail will announce (steps at the newest
   * version of their series that a subscriber wants at once; none without recipients); the others wait in the digest.
   */
  public record Report(long lines, int created, int unchanged, int failed, List<LineError> errors,
      int regressions, int mailed, int inDigestOnly) {}

  private final RunStore runs;
  private final ImportStore store;
  private final Ids ids;
  private final ImportJudging detection;
  private final Rejudging rejudging;
  private final AlertService alerts;
  private final Summaries summaries;
  private final TransactionTemplate tx;
  private final Timer storeTimer;
  private final Timer detectTimer;
  private final ExecutorService storers = Executors.newCachedThreadPool(new ThreadFactory() {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "import-store-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  });

  ImportService(RunStore runs, ImportStore store, Ids ids, ImportJudging detection, Rejudging rejudging,
      Summaries summaries, AlertService alerts, TransactionTemplate tx, MeterRegistry meters) {
    this.rejudging = rejudging;
    this.alerts = alerts;
    this.summaries = summaries;
    this.runs = runs;
    this.ids = ids;
    this.store = store;
    this.detection = detection;
    this.tx = tx;
    // where an import's time goes: reading, parsing and storing the lines, then detection and mail
    this.storeTimer = Timer.builder("perftrack.import.store").description("parsing and storing an import")
        .register(meters);
    this.detectTimer = Timer.builder("perftrack.import.detect").description("detection and mail after an import")
        .register(meters);
  }

  /**
   * Imports every line of {@code ndjson}; a line over {@code maxLineBytes} is a bad line, not the end. The runs
   * waiting to be stored hold at most {@code maxLineBytes} of lines besides the one being read, so an import takes
   * at most the memory of two of its longest lines, however long it is. A body that
   * breaks off (the connection dropped, a gzip file cut short) ends the import at the line it broke in: that line
   * is reported, the complete lines before it are stored and judged as usual. Whatever else stops the import
   * half-way (a body over the limit) still has the batches stored so far judged before it is answered, so that a
   * later import of the same file, which finds them unchanged, does not leave their steps unopened.
   */
  public Report importRuns(InputStream ndjson, int maxLineBytes, long maxLines) throws IOException {
    long started = System.nanoTime();
    ImportBatch.Context context = new ImportBatch.Context();
    NdjsonLines lines = new NdjsonLines(ndjson, maxLineBytes);
    return imported(started, context, lines::count, maxLineBytes, pipeline -> {
      for (NdjsonLines.Line line = next(lines, context); line != null; line = next(lines, context)) {
        if (line.number() > maxLines) {
          context.fail(line.number(), null, List.of(new FieldProblem("line", "and the lines after it were not read:"
              + " an import takes at most " + Quantities.count(maxLines)
              + " lines; send the rest in another request")));
          break;
        }
        pipeline.add(parse(line, context));
      }
    });
  }

  /**
   * Feeds the runs of an import to a pipeline, waits for their storing, and judges them. Whatever stops the feed
   * half-way still has the batches stored so far judged before the stop is answered.
   */
  private Report imported(long started, ImportBatch.Context context, java.util.function.LongSupplier lineCount,
      long maxHeldBytes, java.util.function.Consumer<Pipeline> feed) {
    // what was left due before it began this import judges too; what it stores, nobody else
    java.time.OffsetDateTime began = rejudging.importBegins(context.id());
    try {
      Pipeline pipeline = new Pipeline(context, maxHeldBytes);
      try {
        feed.accept(pipeline);
        pipeline.finish();
      } catch (RuntimeException e) {
        judgeWhatWasStored(pipeline, context, lineCount.getAsLong(), began);
        throw e;
      }
      long stored = System.nanoTime();
      storeTimer.record(stored - started, TimeUnit.NANOSECONDS);
      Report report = detectAndAnnounce(context, lineCount.getAsLong(), began);
      detectTimer.record(System.nanoTime() - stored, TimeUnit.NANOSECONDS);
      return report;
    } finally {
      rejudging.importEnded(context.id());
    }
  }

  /** The next line; null at the end, or where the body broke off (that line is reported, the rest not read). */
  private static NdjsonLines.Line next(NdjsonLines lines, ImportBatch.Context context) {
    try {
      return lines.next();
    } catch (IOException e) {
      context.fail(lines.count() + 1, null, List.of(new FieldProblem("body", "broke off in this line ("
          + e.getMessage() + "): this line and the ones after it were not read; the lines before it are"
          + " imported, send the rest again (or the whole file: what is stored is found unchanged)")));
      return null;
    }
  }

  /** After an import stopped half-way: the batches already stored are judged (best effort: the stop is answered). */
  private void judgeWhatWasStored(Pipeline pipeline, ImportBatch.Context context, long lineCount,
      java.time.OffsetDateTime began) {
    try {
      pipeline.await();
      detectAndAnnounce(context, lineCount, began);
    } catch (RuntimeException e) {
      log.error("import: the batches stored before the import stopped could not be judged", e);
    }
  }

  /**
   * The same for the CSV layout of {@link CsvRuns}: rows grouped into runs, numbered by their first row. The runs
   * being assembled hold at most half of {@code maxLineBytes} of rows (a larger file gives its runs to the pipeline
   * as it goes), the pipeline another half: like an NDJSON import, a CSV import holds twice its longest line.
   */
  public Report importCsv(InputStream csv, int maxLineBytes, long maxLines) throws IOException {
    long started = System.nanoTime();
    ImportBatch.Context context = new ImportBatch.Context();
    long[] read = {0};
    return imported(started, context, () -> read[0], maxLineBytes / 2, pipeline -> {
      read[0] = CsvRuns.read(csv, maxLineBytes, maxLines, maxLineBytes / 2, parsed -> {
        if (parsed.run() == null) {
          context.fail(parsed.line(), null, parsed.problems());
        } else {
          pipeline.add(accept(parsed.line(), parsed.run(), parsed.bytes(), context));
        }
      });
    });
  }

  /**
   * Batches are checked in file order on the request thread (duplicates in the file, ids, new versions) and then
   * stored on threads of their own, two transactions at a time, while the request thread reads, parses and checks
   * the next one: PostgreSQL inserts one batch's results while the other's points wait for their series' locks,
   * and the JSON work overlaps both. At most two batches are stored at once and one waits parsed (memory stays
   * three batches), and the runs held hold at most {@code maxHeldBytes} of the lines they were read from (a line
   * that would pass it waits for the batches before it to be stored).
   */
  private final class Pipeline {
    static final int STORING = 2;
    private final ImportBatch.Context context;
    private final long maxHeldBytes;
    private final java.util.ArrayDeque<Future<?>> storing = new java.util.ArrayDeque<>();
    private final java.util.ArrayDeque<Long> storingBytes = new java.util.ArrayDeque<>();
    private List<ImportBatch.Pending> batch = new ArrayList<>(BATCH_RUNS);
    private long batchBytes;
    private long held;

    Pipeline(ImportBatch.Context context, long maxHeldBytes) {
      this.context = context;
      this.maxHeldBytes = maxHeldBytes;
    }

    /** A good line (null: a bad one, already reported); a full batch goes to be stored. */
    void add(ImportBatch.Pending pending) {
      if (pending != null) {
        while (held + pending.bytes() > maxHeldBytes && (!storing.isEmpty() || !batch.isEmpty())) {
          if (storing.isEmpty()) {
            sendBatch();
          } else {
            awaitOldest();
          }
        }
        batch.add(pending);
        batchBytes += pending.bytes();
        held += pending.bytes();
      }
      if (batch.size() == BATCH_RUNS) {
        sendBatch();
      }
    }

    /** Stores the last, partial batch and waits for every batch being stored. */
    void finish() {
      if (!batch.isEmpty()) {
        sendBatch();
      }
      await();
    }

    private void sendBatch() {
      while (storing.size() >= STORING) {
        awaitOldest();
      }
      List<ImportBatch.Pending> full = batch;
      long bytes = batchBytes;
      batch = new ArrayList<>(BATCH_RUNS);
      batchBytes = 0;
      ImportBatch prepared = prepareBatch(full, context);
      if (prepared != null) {
        storing.add(storers.submit(() -> storeBatch(prepared, context)));
        storingBytes.add(bytes);
      } else {
        held -= bytes;
      }
    }

    /** Waits for every batch being stored; their failures are in the context (reported by line). */
    void await() {
      while (!storing.isEmpty()) {
        awaitOldest();
      }
    }

    private void awaitOldest() {
      try {
        storing.peek().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("import interrupted", e);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
      } finally {
        storing.poll();
        held -= storingBytes.poll();
      }
    }
  }

  @PreDestroy
  void stop() {
    storers.shutdown();
  }

  private static ImportBatch.Pending parse(NdjsonLines.Line line, ImportBatch.Context context) {
    if (line.tooLong()) {
      context.fail(line.number(), null, List.of(new FieldProblem("line",
          "is longer than a line of an import may be (half of perftrack.limits.max-body-bytes); send that run"
          + " with POST /api/v1/runs")));
      return null;
    }
    if (line.blank()) {
      return null;
    }
    RunUpload run;
    try {
      run = Json.MAPPER.readValue(line.bytes(), RunUpload.class);
    } catch (JacksonException e) {
      context.fail(line.number(), null, List.of(new FieldProblem("line", "is not a run in JSON: "
          + JsonProblems.describeInLine(e))));
      return null;
    }
    return accept(line.number(), run, line.bytes().length, context);
  }

  /** A run read from line {@code line}, validated: pending for its batch, or a bad line. */
  private static ImportBatch.Pending accept(long line, RunUpload run, long bytes, ImportBatch.Context context) {
    try {
      RunValidator.validate(run);
      if (run.branch() != null) {
        throw new InvalidInput("branch", "a branch run is judged on its own: upload it to /api/v1/runs");
      }
    } catch (InvalidInput e) {
      context.fail(line, run == null ? null : run.id(), problems(e));
      return null;
    }
    return new ImportBatch.Pending(line, run, UUID.fromString(run.id()), bytes);
  }

  /** Checks a batch before its transaction (in file order); null when none of it can be stored. */
  private ImportBatch prepareBatch(List<ImportBatch.Pending> batch, ImportBatch.Context context) {
    ImportBatch prepared = new ImportBatch(runs, store, ids, detection, rejudging, context);
    try {
      prepared.prepare(batch);
      return prepared;
    } catch (RuntimeException e) {
      log.error("import: a batch of {} runs could not be checked", batch.size(), e);
      for (ImportBatch.Pending p : batch) {
        context.fail(p.line(), p.runId(), List.of(new FieldProblem("line",
            "could not be stored (the server log has the details); nothing of its batch was kept")));
      }
      return null;
    }
  }

  private void storeBatch(ImportBatch stored, ImportBatch.Context context) {
    try {
      tx.executeWithoutResult(status -> stored.store());
      stored.committed();
      stored.pending().forEach(ImportBatch.Pending::release);
    } catch (RuntimeException e) {
      log.error("import: a batch of {} runs could not be stored", stored.pending().size(), e);
      List<ImportBatch.Pending> lost = stored.pending();
      context.forget(lost);
      for (ImportBatch.Pending p : lost) {
        context.fail(p.line(), p.runId(), List.of(new FieldProblem("line",
            "could not be stored (the server log has the details); nothing of its batch was kept")));
      }
    }
  }

  /**
   * Detection once per touched series, judging each touched version in version order as if its runs had arrived
   * one by one ({@link ImportJudging#onImported}); then mail for the newest steps only. What was left due before
   * the import {@code began} in its series is judged too ({@link Rejudging#pickUp}).
   */
  private Report detectAndAnnounce(ImportBatch.Context context, long lineCount, java.time.OffsetDateTime began) {
    List<ImportJudging.Imported> touched = new ArrayList<>();
    Set<Long> allSeries = new HashSet<>();
    for (ImportBatch.Touched t : context.touched().values()) {
      touched.add(new ImportJudging.Imported(t.runId(), t.productId(), t.machineId(), t.versionId(),
          t.seriesIds()));
      allSeries.addAll(t.seriesIds());
    }
    Map<UUID, List<Regression>> raised = new LinkedHashMap<>();
    raised.putAll(tx.execute(status -> {
      Map<UUID, List<Regression>> judged = detection.onImported(touched, context.readBack());
      rejudging.importJudged(context.id());
      return judged;
    }));
    // what an earlier import of these series or runs stored but never judged (it crashed before its end): no run
    Rejudging.Outcome left = tx.execute(status -> rejudging.pickUp(allSeries, context.unchangedPlaces(), began));
    if (!left.raised().isEmpty()) {
      raised.put(null, left.raised());
      allSeries.addAll(left.seriesIds());
    }
    int regressions = 0;
    int mailed = 0;
    if (!raised.isEmpty()) {
      Map<String, String> newest = store.newestVersions(allSeries);
      for (Map.Entry<UUID, List<Regression>> e : raised.entrySet()) {
        regressions += e.getValue().size();
        Map<Boolean, List<Regression>> byAge = e.getValue().stream().collect(Collectors.partitioningBy(r ->
            r.version().equals(newest.get(ImportStore.seriesKey(r.machine(), r.benchmark(), r.metric())))));
        List<Regression> current = byAge.get(true);
        List<Regression> older = byAge.get(false);
        // summaries as if the runs had arrived one by one; mail (one per summary) only for the newest steps
        tx.executeWithoutResult(status -> summaries.afterJudging(Raised.imported(e.getKey(), current, older)));
        mailed += alerts.mailedOf(current);
      }
    }
    return new Report(lineCount, context.created(), context.unchanged(), context.failed(), context.errors(),
        regressions, mailed, regressions - mailed);
  }

  static List<FieldProblem> problems(InvalidInput e) {
    return e.fields();
  }
}
