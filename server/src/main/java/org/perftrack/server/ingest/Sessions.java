package org.perftrack.server.ingest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.detection.DetectionService;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Rejudging;
import org.perftrack.server.detection.StoredRun;
import org.perftrack.server.detection.WaitingChange;
import org.perftrack.server.summaries.Raised;
import org.perftrack.server.summaries.Summaries;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The runs of a session that says how many runs it sends ({@code batch} with {@code batchSize}): each is stored at
 * once and listed in {@code session_pending}; the session's runs of one product and machine are judged together, in
 * version order, by the upload that brings the last of them, or when none arrived for the settle time
 * ({@code perftrack.detection.batch-settle}, {@link SessionSettler}). So the decisions do not depend on the order in
 * which the session's runs arrive. Everything here runs in the caller's transaction.
 */
@Service
class Sessions {

  /** What the answer to an upload of a session's run says of its session. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record SessionProgress(String batch, int stored, int batchSize, boolean judged, String note) {
    /** @param settle {@code perftrack.detection.batch-settle} */
    static String waiting(Duration settle) {
      long ms = settle.toMillis();
      String wait = ms % 1000 != 0 ? ms + " ms" : ms % 3_600_000 == 0 ? ms / 3_600_000 + " h"
          : ms % 60_000 == 0 && ms >= 120_000 ? ms / 60_000 + " min" : ms / 1000 + " s";
      return "judged with its session when the session's runs are all stored, or once none of them arrived for "
          + wait;
    }

    static final String JUDGED = "judged with its session: the regressions are those of all its runs";
  }

  /**
   * A session's runs judged together: the regressions they raised, the changes at its newest version that wait for
   * one more build, the series judged.
   */
  record Judged(UUID as, List<Regression> raised, List<WaitingChange> waiting, Set<Long> seriesIds) {}

  /** A session of one product and machine with runs waiting. */
  record Waiting(UUID batch, long productId, long machineId) {}

  private record PendingRun(UUID runId, long versionId, String sortKey, java.time.OffsetDateTime receivedAt) {}

  private final JdbcClient jdbc;
  private final DetectionService detection;
  private final Rejudging rejudging;
  private final Summaries summaries;
  private final String waitingNote;

  Sessions(JdbcClient jdbc, DetectionService detection, Rejudging rejudging, Summaries summaries,
      DetectionProperties properties) {
    this.waitingNote = SessionProgress.waiting(properties.batchSettle());
    this.jdbc = jdbc;
    this.detection = detection;
    this.rejudging = rejudging;
    this.summaries = summaries;
  }

  /**
   * Holds the session (product and machine aside) until the transaction ends: the upload that counts its runs and
   * the settle thread that judges them see each other's work.
   */
  void lock(UUID batch) {
    jdbc.sql("SELECT pg_advisory_xact_lock(hashtext('perftrack session'), hashtext(?::text))").param(batch.toString())
        .query(Object.class).single();
  }

  static final String OPEN = """
      INSERT INTO run_session (batch, product_id, machine_id, token_id, batch_size) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (batch, product_id, machine_id) DO NOTHING""";
  static final String OPENED = """
      SELECT token_id, batch_size FROM run_session WHERE batch = ? AND product_id = ? AND machine_id = ?""";

  private record Opened(Long tokenId, Integer batchSize) {}

  /**
   * Binds {@code batch} to the token and {@code batchSize} of its first run (under {@link #lock}): a later run of it
   * with another token, or another size, is a 409, so a batch id read from a run gives no hold on its session.
   */
  void bind(UUID batch, long productId, long machineId, Long tokenId, Integer batchSize) {
    jdbc.sql(OPEN).params(batch, productId, machineId, tokenId, batchSize).update();
    Opened first = jdbc.sql(OPENED).params(batch, productId, machineId).query(Opened.class).single();
    if (!java.util.Objects.equals(first.tokenId(), tokenId)) {
      throw new Conflict("batch " + batch + " is a session another API token opened; send this run with a batch of"
          + " its own", List.of(new FieldProblem("batch", "belongs to another token's session")));
    }
    if (!java.util.Objects.equals(first.batchSize(), batchSize)) {
      throw new Conflict("the runs of batch " + batch + " give batchSize " + first.batchSize() + ", as its first run"
          + " did; this one gives " + batchSize, List.of(new FieldProblem("batchSize", "must be "
          + first.batchSize() + ", as the session's first run said")));
    }
  }

  /** What the answer to an upload whose run waits for its session says of it. */
  String waitingNote() {
    return waitingNote;
  }

  /** Lists a stored run as waiting for its session. */
  void waitFor(UUID runId, int batchSize) {
    jdbc.sql("INSERT INTO session_pending (run_id, batch_size) VALUES (?, ?)").params(runId, batchSize).update();
  }

  /** How many runs of the session this product and machine have stored. */
  int stored(UUID batch, long productId, long machineId) {
    return jdbc.sql("SELECT count(*) FROM run WHERE batch = ? AND product_id = ? AND machine_id = ?")
        .params(batch, productId, machineId).query(Integer.class).single();
  }

  /** Whether this run still waits for its session. */
  boolean waiting(UUID runId) {
    return jdbc.sql("SELECT count(*) FROM session_pending WHERE run_id = ?").param(runId).query(Integer.class)
        .single() > 0;
  }

  static final String PENDING = """
      SELECT p.run_id, ru.version_id, v.sort_key, ru.received_at
      FROM session_pending p JOIN run ru ON ru.id = p.run_id JOIN version v ON v.id = ru.version_id
      WHERE ru.batch = ? AND ru.product_id = ? AND ru.machine_id = ?""";

  /**
   * Judges the waiting runs of the session in this product and machine, in version order, as one step: each run is
   * judged as if the session had sent its runs oldest version first (the runs of the session not judged yet are left
   * out of the interleaved evidence). The regressions are recorded as raised by {@code as} (null: the run that
   * arrived last), so that the answer to that upload, and to a re-send of it, lists them all.
   */
  Judged judge(UUID batch, long productId, long machineId, UUID as) {
    List<PendingRun> runs = new ArrayList<>(jdbc.sql(PENDING).params(batch, productId, machineId)
        .query(PendingRun.class).list());
    if (runs.isEmpty()) {
      return new Judged(as, List.of(), List.of(), Set.of());
    }
    UUID by = as != null ? as : runs.stream().max(Comparator.comparing(PendingRun::receivedAt)
        .thenComparing(PendingRun::runId)).orElseThrow().runId();
    runs.sort(Comparator.comparing(PendingRun::sortKey).thenComparing(PendingRun::receivedAt)
        .thenComparing(PendingRun::runId));
    List<WaitingChange> waiting = new ArrayList<>();
    Set<Long> series = new LinkedHashSet<>();
    DetectionService.ReadBack kept = detection.readBack(); // the session's runs of one version read back once
    for (PendingRun r : runs) {
      if (jdbc.sql("DELETE FROM session_pending WHERE run_id = ?").param(r.runId()).update() == 0) {
        continue; // claimed: a run no longer listed was judged by the transaction that took it off the list
      }
      kept.judging(r.runId(), batch, r.versionId(), r.receivedAt());
      List<Long> ids = jdbc.sql("SELECT DISTINCT series_id FROM result WHERE run_id = ? ORDER BY series_id")
          .param(r.runId()).query(Long.class).list();
      DetectionService.Judgement j = detection.onRunStored(new StoredRun(by, productId, r.versionId(), batch, ids), kept);
      waiting.clear(); // what waits at an older version of the session was settled by the newer ones judged after it
      waiting.addAll(j.waiting());
      series.addAll(ids);
    }
    List<Regression> raised = detection.createdBy(by).stream()
        .filter(g -> g.status() == Regression.Status.OPEN).toList();
    return new Judged(by, raised, waiting, series);
  }

  /**
   * Judges a session's waiting runs and hands what they raised to the summaries (and so to the alerts), as an
   * upload's transaction does; returns the summaries changed.
   */
  List<Summaries.Change> judgeAndSummarise(Judged judged) {
    Rejudging.Outcome left = rejudging.pickUpStale(judged.seriesIds());
    summaries.afterJudging(Raised.again(left));
    return summaries.afterJudging(Raised.byRun(judged.as(), judged.seriesIds(), judged.raised()));
  }

  /**
   * The sessions due: none of their runs arrived for {@code settle}, or their oldest waiting run is older than
   * {@code maxAge} (whatever keeps arriving). Taken round-robin between the tokens that opened them (each token's
   * oldest first, then each token's second, …), so that one token's many or large sessions do not keep another's
   * waiting past its settle time.
   */
  static final String SETTLED = """
      SELECT batch, product_id, machine_id FROM (
        SELECT ru.batch, ru.product_id, ru.machine_id, min(p.received_at) AS since,
               row_number() OVER (PARTITION BY min(s.token_id) ORDER BY min(p.received_at)) AS turn
        FROM session_pending p JOIN run ru ON ru.id = p.run_id LEFT JOIN run_session s
          ON s.batch = ru.batch AND s.product_id = ru.product_id AND s.machine_id = ru.machine_id
        GROUP BY ru.batch, ru.product_id, ru.machine_id
        HAVING max(p.received_at) <= now() - make_interval(secs => ?)
            OR min(p.received_at) <= now() - make_interval(secs => ?)) due
      ORDER BY turn, since
      LIMIT 100""";

  static final String STILL_SETTLED = """
      SELECT coalesce(max(p.received_at) <= clock_timestamp() - make_interval(secs => ?)
                      OR min(p.received_at) <= clock_timestamp() - make_interval(secs => ?), false)
      FROM session_pending p JOIN run ru ON ru.id = p.run_id
      WHERE ru.batch = ? AND ru.product_id = ? AND ru.machine_id = ?""";

  /** Whether the session still has waiting runs and is due (under its {@link #lock}). */
  boolean stillSettled(Waiting w, Duration settle, Duration maxAge) {
    return jdbc.sql(STILL_SETTLED).params(seconds(settle), seconds(maxAge), w.batch(), w.productId(), w.machineId())
        .query(Boolean.class).single();
  }

  /** Sessions due now, round-robin between tokens (all of them, at start-up, after the wait). */
  List<Waiting> settled(Duration settle, Duration maxAge) {
    return jdbc.sql(SETTLED).params(seconds(settle), seconds(maxAge)).query(Waiting.class).list();
  }

  private static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }
}
