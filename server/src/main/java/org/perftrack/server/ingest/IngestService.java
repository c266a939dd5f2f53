package org.perftrack.server.ingest;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.perftrack.server.db.Json;
import org.perftrack.wire.RunUpload;
import org.perftrack.server.branches.Branches;
import org.perftrack.server.detection.DetectionService;
import org.perftrack.server.summaries.Raised;
import org.perftrack.server.summaries.Summaries;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.WaitingChange;
import org.perftrack.server.detection.Rejudging;
import org.perftrack.server.detection.StoredRun;
import org.perftrack.server.problems.Conflict;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores one run, all or nothing, and runs detection in the same transaction. Re-sending a run is
 * harmless: the same id with the same content is recognised by its content hash.
 */
@Service
public class IngestService {

  /** What happened to an upload: {@code created} false means it was already stored. */
  public record Outcome(UUID id, boolean created, List<Regression> regressions, List<Regression> confirmed,
      List<Summaries.Change> summaries, String branch, String startPoint, List<WaitingChange> waiting,
      Sessions.SessionProgress session, List<WaitingChange> inconclusive) {

    Outcome(UUID id, boolean created, List<Regression> regressions, List<Regression> confirmed,
        List<Summaries.Change> summaries, String branch, String startPoint, List<WaitingChange> waiting,
        Sessions.SessionProgress session) {
      this(id, created, regressions, confirmed, summaries, branch, startPoint, waiting, session, null);
    }

    Outcome(UUID id, boolean created, List<Regression> regressions, List<Regression> confirmed,
        List<Summaries.Change> summaries) {
      this(id, created, regressions, confirmed, summaries, null, null, List.of(), null);
    }
  }

  private static final JsonMapper CANONICAL =
      Json.MAPPER.rebuild().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();

  private final RunStore store;
  private final Ids ids;
  private final TransactionTemplate tx;
  private final DetectionService detection;
  private final Rejudging rejudging;
  private final Summaries summaries;
  private final Branches branches;
  private final Sessions sessions;
  private final List<RunWatch> watches;
  private final Timer storeTimer;
  private final Timer detectTimer;

  IngestService(RunStore store, Ids ids, TransactionTemplate tx, DetectionService detection, Rejudging rejudging,
      Summaries summaries, Branches branches, Sessions sessions, List<RunWatch> watches, MeterRegistry meters) {
    this.rejudging = rejudging;
    this.watches = List.copyOf(watches);
    this.sessions = sessions;
    this.ids = ids;
    this.branches = branches;
    this.tx = tx;
    this.summaries = summaries;
    this.store = store;
    this.detection = detection;
    // where an upload's time goes, in /actuator/metrics and for the ingest benchmark
    this.storeTimer = Timer.builder("perftrack.ingest.store").description("storing a new run").register(meters);
    this.detectTimer = Timer.builder("perftrack.ingest.detect").description("detection after a new run")
        .register(meters);
  }

  /**
   * Validates and stores one run. The ids it needs come first, from {@link Ids} (a cache, or short statements of
   * their own); then one transaction inserts the run (its id decides: already there means a re-send), COPYs its
   * results and runs detection, so an acknowledged run is stored with its regressions or not at all. A run sent to a
   * deleted product, machine or version is refused, also when the deletion committed while the run was being stored.
   */
  public Outcome ingest(RunUpload upload) {
    return ingest(upload, null);
  }

  /** {@link #ingest(RunUpload)} of a run sent with API token {@code tokenId}: a session is bound to its first token. */
  public Outcome ingest(RunUpload upload, Long tokenId) {
    RunValidator.validate(upload);
    RunUpload run = canonicalIds(upload);
    UUID id = UUID.fromString(run.id());
    String hash = contentHash(run);
    ids.refuseDeleted(run);
    if (run.branch() != null) {
      return onBranch(id, run, hash, tokenId);
    }
    long started = System.nanoTime();
    Ids.RunIds known = ids.resolve(run);
    long productId = known.productId();
    long versionId = known.versionId();
    long machineId = known.machineId();
    RunStore.Resolved series = known.series();
    return tx.execute(status -> {
      if (!store.insertRun(id, productId, versionId, machineId, run, hash)) {
        // stored before (a re-send), or by another request between; either has committed by now
        return resent(id, store.contentHash(id).orElseThrow(), hash, run, productId, machineId);
      }
      // a deletion of its product, machine or version that was being written when the check above ran: the run's
      // row waited for it (the deletion locks the row the run refers to) and sees it now; refused as if it came after
      ids.refuseDeleted(run);
      List<Long> seriesIds = series.seriesIds();
      store.copyResults(id, versionId, series.results(), seriesIds);
      watches.forEach(w -> w.stored(id, productId, versionId, machineId));
      long stored = System.nanoTime();
      storeTimer.record(stored - started, TimeUnit.NANOSECONDS);
      UUID batch = run.batch() == null ? null : UUID.fromString(run.batch());
      if (batch != null) {
        sessions.lock(batch);
        sessions.bind(batch, productId, machineId, tokenId, run.batchSize());
      }
      if (run.batchSize() != null) {
        return ofSession(id, batch, run.batchSize(), productId, machineId, stored);
      }
      var judgement = detection.onRunStored(new StoredRun(id, productId, versionId, batch, seriesIds,
          values(series.results())));
      var regressions = judgement.regressions();
      Rejudging.Outcome left = rejudging.pickUpStale(seriesIds);
      detectTimer.record(System.nanoTime() - stored, TimeUnit.NANOSECONDS);
      summaries.afterJudging(Raised.again(left));
      // the summaries take the regressions, then hand them to the alerts (one mail per summary)
      List<Summaries.Change> changed = summaries.afterJudging(Raised.byRun(id, seriesIds, regressions));
      // read back, so that each regression names the summary it joined
      return new Outcome(id, true, changed.isEmpty() ? regressions : detection.createdBy(id),
          detection.confirmedBy(id), changed, null, null, judgement.waiting(), null);
    });
  }

  /**
   * A run of a session that said how many runs it sends: stored and listed as waiting; the upload that brings the
   * session's last run (in this product and machine) judges them all, in version order, and answers with what they
   * raised. Until then an upload's answer says that its run waits for its session.
   */
  private Outcome ofSession(UUID id, UUID batch, int batchSize, long productId, long machineId, long stored) {
    sessions.lock(batch);
    sessions.waitFor(id, batchSize);
    int count = sessions.stored(batch, productId, machineId);
    if (count < batchSize) {
      return new Outcome(id, true, List.of(), List.of(), List.of(), null, null, List.of(),
          new Sessions.SessionProgress(batch.toString(), count, batchSize, false, sessions.waitingNote()));
    }
    Sessions.Judged judged = sessions.judge(batch, productId, machineId, id);
    List<Summaries.Change> changed = sessions.judgeAndSummarise(judged);
    detectTimer.record(System.nanoTime() - stored, TimeUnit.NANOSECONDS);
    List<Regression> raised = changed.isEmpty() ? judged.raised() : detection.createdBy(id).stream()
        .filter(r -> r.status() == Regression.Status.OPEN).toList();
    return new Outcome(id, true, raised, confirmedBesides(detection.confirmedBy(id), raised), changed, null, null,
        judged.waiting(),
        new Sessions.SessionProgress(batch.toString(), count, batchSize, true, Sessions.SessionProgress.JUDGED));
  }

  /**
   * A branch run: matched to the default branch's existing series (nothing of the default branch is created or
   * written), then stored and judged with its branch; refused, as a run of the default branch is, when its product,
   * machine or start point was deleted meanwhile (its branch's and its own rows wait for the deletion's lock).
   */
  private Outcome onBranch(UUID id, RunUpload run, String hash, Long tokenId) {
    Ids.Existing known = ids.existing(run);
    List<RunUpload.ResultUpload> all = run.results();
    RunStore.Resolved matched = RunStore.resolve(all, known.series());
    List<Branches.Result> results = new java.util.ArrayList<>(all.size());
    int k = 0;
    for (RunUpload.ResultUpload r : all) {
      boolean inSeries = known.series().containsKey(RunStore.key(r));
      RunUpload.ResultUpload converted = inSeries ? matched.results().get(k) : r;
      Long seriesId = inSeries ? matched.seriesIds().get(k++) : null;
      results.add(new Branches.Result(converted, seriesId, values(List.of(converted)).get(0)));
    }
    Branches.Upload upload = new Branches.Upload(id, run, hash, known.productId(), known.machineId(), results,
        tokenId);
    Branches.Outcome done = tx.execute(status -> {
      Branches.Outcome stored = branches.store(upload);
      if (stored.created()) {
        // as for a run of the default branch: a deletion of its product or machine being written meanwhile, or of
        // the version it starts from (its run's row waited for that version's lock)
        ids.refuseDeleted(run);
        ids.refuseDeletedStartPoint(run, stored.startPoint());
      }
      return stored;
    });
    return new Outcome(done.id(), done.created(), done.regressions(), List.of(), List.of(), done.branch(),
        done.startPoint(), List.of(), null, done.inconclusive());
  }

  /** After machines were renamed or merged: an upload names the machine as it is now. */
  public void machinesRenamed() {
    ids.forgetMachines();
  }

  /** After versions were purged for good: an upload naming one again makes it anew. */
  public void versionsPurged() {
    ids.forgetVersions();
  }

  /** The stored values of each result, for detection to summarise without reading them back. */
  static List<StoredRun.Values> values(List<RunUpload.ResultUpload> results) {
    List<StoredRun.Values> out = new java.util.ArrayList<>(results.size());
    for (RunUpload.ResultUpload r : results) {
      if (r.samples() == null) {
        out.add(new StoredRun.Values(new double[0], r.n(), r.mean(), r.median(), r.stddev()));
      } else {
        double[] samples = new double[r.samples().size()];
        for (int i = 0; i < samples.length; i++) {
          samples[i] = r.samples().get(i);
        }
        out.add(new StoredRun.Values(samples, samples.length, 0, null, null));
      }
    }
    return out;
  }

  /** UUIDs are case-insensitive: an upper-case resend of a run is the same run (and hashes the same). */
  private static RunUpload canonicalIds(RunUpload run) {
    return new RunUpload(UUID.fromString(run.id()).toString(), run.product(), run.version(), run.machine(), run.suite(),
        run.batch() == null ? null : UUID.fromString(run.batch()).toString(), run.startedAt(), run.finishedAt(),
        run.attributes(), run.results(), run.failures(), run.branch(), run.startPoint(), run.batchSize());
  }

  private Outcome resent(UUID id, String storedHash, String hash, RunUpload run, long productId, long machineId) {
    if (!storedHash.equals(hash)) {
      throw new Conflict("run " + id + " was already stored with other content; "
          + "a changed run needs a new id");
    }
    Sessions.SessionProgress session = null;
    if (run.batchSize() != null) {
      UUID batch = UUID.fromString(run.batch());
      boolean waiting = sessions.waiting(id);
      session = new Sessions.SessionProgress(batch.toString(), sessions.stored(batch, productId, machineId),
          run.batchSize(), !waiting, waiting ? sessions.waitingNote() : Sessions.SessionProgress.JUDGED);
    }
    List<Regression> raised = detection.createdBy(id);
    return new Outcome(id, false, raised, confirmedBesides(detection.confirmedBy(id), raised),
        summaries.changedBy(id), null, null, List.of(), session);
  }

  /**
   * The regressions an answer lists as confirmed: those an earlier upload reported unconfirmed. A session's runs
   * are judged as one, so a step its older version opened and its newer ones confirmed is raised by the same answer:
   * listed once, under {@code regressions} (already confirmed), not a second time under {@code confirmed}.
   */
  private static List<Regression> confirmedBesides(List<Regression> confirmed, List<Regression> raised) {
    Set<Long> ids = raised.stream().map(Regression::id).collect(Collectors.toSet());
    return confirmed.stream().filter(r -> !ids.contains(r.id())).toList();
  }

  static String contentHash(RunUpload run) {
    try {
      // the canonical JSON's UTF-8 bytes go straight into the digest (no String, no byte array of the whole run);
      // encoded by a Writer as String.getBytes did, so that stored hashes still match (a lone surrogate is '?')
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      try (java.io.Writer out = new java.io.OutputStreamWriter(
          new java.security.DigestOutputStream(java.io.OutputStream.nullOutputStream(), digest),
          java.nio.charset.StandardCharsets.UTF_8)) {
        CANONICAL.writeValue(out, run);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
