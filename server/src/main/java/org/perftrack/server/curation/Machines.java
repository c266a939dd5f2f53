package org.perftrack.server.curation;

import java.util.ArrayList;
import java.util.List;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.detection.Rejudging;
import org.perftrack.server.ingest.IngestService;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.Names;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.summaries.Raised;
import org.perftrack.server.summaries.Summaries;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Renaming a machine (its owner gave it a new host name) and merging two names of one box into one series
 * history. Each is one transaction; the lab and the mail log, which keep machine names, follow.
 */
@Service
class Machines {

  private final JdbcClient jdbc;
  private final TransactionTemplate tx;
  private final Rejudging rejudging;
  private final Summaries summaries;
  private final IngestService ingest;
  private final Audit audit;

  Machines(JdbcClient jdbc, TransactionTemplate tx, Rejudging rejudging, Summaries summaries, IngestService ingest,
      Audit audit) {
    this.jdbc = jdbc;
    this.tx = tx;
    this.rejudging = rejudging;
    this.summaries = summaries;
    this.ingest = ingest;
    this.audit = audit;
  }

  /** The tables that name machines by text rather than by id. */
  static final List<String> NAMED = List.of(
      "UPDATE lab_agent SET machine = ? WHERE machine = ?",
      "UPDATE lab_job SET machine = ? WHERE machine = ?",
      "UPDATE lab_schedule SET machine = ? WHERE machine = ?",
      "UPDATE bisection SET machine = ? WHERE machine = ?",
      "UPDATE alert_regression SET machine = ? WHERE machine = ?");

  Curation.Change rename(String from, String to, String by) {
    Names.requireSegment("name", to);
    if (to.equals(from)) {
      throw new InvalidInput("name", "is the machine's name already");
    }
    Curation.Change change = tx.execute(s -> {
      long id = lock(from);
      Boolean deleted = jdbc.sql("SELECT deletion_id IS NOT NULL FROM machine WHERE name = ?").param(to)
          .query(Boolean.class).optional().orElse(null);
      if (Boolean.TRUE.equals(deleted)) {
        // a merge into it would answer 404: say what can be done
        throw new Conflict("a deleted machine " + to + " keeps its name until it is purged; restore it under"
            + " Recently deleted and merge " + from + " into it, or choose another name");
      } else if (deleted != null) {
        throw new Conflict("a machine " + to + " exists already; merge " + from + " into it instead");
      }
      jdbc.sql("UPDATE machine SET name = ? WHERE id = ?").params(to, id).update();
      NAMED.forEach(sql -> jdbc.sql(sql).params(to, from).update());
      audit.record(by, "renamed", "machine " + from, "now " + to);
      return new Curation.Change("machine " + from + " renamed to " + to, null, List.of());
    });
    ingest.machinesRenamed();
    return change;
  }

  static final String SAME_SERIES = """
      SELECT f.id AS from_id, t.id AS to_id FROM series f
      JOIN series t ON t.product_id = f.product_id AND t.benchmark = f.benchmark AND t.metric = f.metric
                   AND t.machine_id = ?
      WHERE f.machine_id = ? ORDER BY f.id""";

  record Pair(long fromId, long toId) {}

  /**
   * Merges machine {@code from} into {@code into}: its runs become {@code into}'s, a series both measured becomes one
   * (its results, steps and history moved, then judged again over the versions {@code from} measured), a series only
   * {@code from} measured moves as it is. The name {@code from} is gone afterwards.
   */
  Curation.Change merge(String from, String into, String by) {
    if (from.equals(into)) {
      throw new Conflict("a machine cannot be merged into itself");
    }
    Curation.Change change = tx.execute(s -> {
      long f = lock(from);
      long t = lock(into);
      List<Pair> shared = jdbc.sql(SAME_SERIES).params(t, f).query(Pair.class).list();
      List<List<Long>> pairs = new ArrayList<>();
      for (Pair p : shared) {
        for (String table : List.of("result", "result_set_aside")) {
          jdbc.sql("UPDATE " + table + " SET series_id = ? WHERE series_id = ?").params(p.toId(), p.fromId()).update();
        }
        jdbc.sql("SELECT DISTINCT version_id FROM result WHERE series_id = ?").param(p.toId()).query(Long.class).list()
            .forEach(v -> pairs.add(List.of(p.toId(), v)));
        jdbc.sql("UPDATE branch_result SET series_id = ? WHERE series_id = ?").params(p.toId(), p.fromId()).update();
      }
      List<Long> emptied = shared.stream().map(Pair::fromId).toList();
      rejudging.mergedSeries(emptied, shared.stream().map(Pair::toId).toList());
      jdbc.sql("DELETE FROM series WHERE id = ANY(?::bigint[])").param(emptied.toArray(Long[]::new)).update();
      jdbc.sql("UPDATE series SET machine_id = ? WHERE machine_id = ?").params(t, f).update();
      jdbc.sql("UPDATE run SET machine_id = ? WHERE machine_id = ?").params(t, f).update();
      jdbc.sql("UPDATE branch_run SET machine_id = ? WHERE machine_id = ?").params(t, f).update();
      jdbc.sql("DELETE FROM lab_agent WHERE machine = ? AND product IN (SELECT product FROM lab_agent WHERE machine = ?)")
          .params(from, into).update();
      NAMED.forEach(sql -> jdbc.sql(sql).params(into, from).update());
      jdbc.sql("DELETE FROM machine WHERE id = ?").param(f).update();
      String reason = "machine " + from + " merged into " + into + " by " + by;
      Rejudging.Outcome o = rejudging.changed(pairs, reason);
      summaries.afterJudging(Raised.again(o));
      audit.record(by, "merged", "machine " + from, "into " + into + " (" + shared.size() + " series joined)");
      return new Curation.Change("machine " + from + " merged into " + into, null, o.raised());
    });
    ingest.machinesRenamed();
    return change;
  }

  private long lock(String name) {
    return jdbc.sql("SELECT id FROM machine WHERE name = ? AND deletion_id IS NULL FOR UPDATE").param(name)
        .query(Long.class).optional().orElseThrow(() -> new NotFound("no machine " + name));
  }

  /** The other machines one may merge {@code name} into, by name (at most {@code limit}). */
  List<String> others(String name, int limit) {
    return jdbc.sql("SELECT name FROM machine WHERE deletion_id IS NULL AND name <> ? ORDER BY name LIMIT ?")
        .params(name, limit).query(String.class).list();
  }
}
