package org.perftrack.server.ingest;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.UUID;
import javax.sql.DataSource;
import org.perftrack.server.db.Json;
import org.perftrack.server.detection.Direction;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.db.BinaryCopy;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of storing a run: the run row, and its results with {@code COPY} ({@link Ids} finds or makes the ids
 * before).
 */
@Repository
class RunStore {

  private final JdbcClient jdbc;
  private final DataSource dataSource;

  RunStore(JdbcClient jdbc, DataSource dataSource) {
    this.jdbc = jdbc;
    this.dataSource = dataSource;
  }

  static final String FIND_HASH = "SELECT content_hash FROM run WHERE id = ?";

  Optional<String> contentHash(UUID runId) {
    return jdbc.sql(FIND_HASH).param(runId).query(String.class).optional();
  }

  record SeriesRow(long id, String benchmark, String metric, String unit, Direction direction) {}

  /** The series of each result, and the results in their series' units. */
  record Resolved(List<Long> seriesIds, List<ResultUpload> results) {}

  /** Matches each result to its series and converts it to the series' unit; a 400 naming every misfit. */
  static Resolved resolve(List<ResultUpload> results, Map<String, SeriesRow> found) {
    List<Long> ids = new ArrayList<>(results.size());
    List<ResultUpload> converted = new ArrayList<>(results.size());
    Map<String, String> problems = new LinkedHashMap<>();
    for (int i = 0; i < results.size(); i++) {
      ResultUpload r = results.get(i);
      SeriesRow s = found.get(key(r));
      if (s == null) {
        continue; // a series still to be created (only when checking before creating: see Ids#resolve)
      }
      OptionalDouble factor = Units.factor(r.unit(), s.unit());
      if (factor.isEmpty()) {
        String dimension = Units.dimensionOf(s.unit());
        problems.put("results[" + i + "].unit", "is '" + r.unit() + "' but earlier runs of "
            + r.benchmark() + " " + r.metric() + " on this machine used '" + s.unit() + "', which it does not"
            + " convert to" + (dimension == null ? "" : " (a unit of " + dimension + " is needed)"));
      } else if (!s.direction().wire().equals(r.direction())) {
        problems.put("results[" + i + "].direction", "is " + r.direction() + " but earlier runs of "
            + r.benchmark() + " " + r.metric() + " on this machine said " + s.direction().wire());
      }
      ids.add(s.id());
      converted.add(factor.isPresent() ? ResultValues.convert(r, s.unit(), factor.getAsDouble()) : r);
    }
    if (!problems.isEmpty()) {
      throw new InvalidInput(problems);
    }
    return new Resolved(ids, converted);
  }

  static String key(ResultUpload r) {
    return r.benchmark() + '\0' + r.metric();
  }

  static final String INSERT_RUN = """
      INSERT INTO run (id, product_id, version_id, machine_id, suite, batch, started_at, finished_at,
                       machine_snapshot, attributes, failures, content_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?)
      ON CONFLICT (id) DO NOTHING""";

  /** False when another request stored a run with this id first. */
  boolean insertRun(UUID id, long productId, long versionId, long machineId, RunUpload run, String hash) {
    return jdbc.sql(INSERT_RUN).params(id, productId, versionId, machineId,
        run.suite() == null ? "default" : run.suite(),
        run.batch() == null ? null : UUID.fromString(run.batch()),
        timestamp(run.startedAt()), timestamp(run.finishedAt()),
        Json.MAPPER.writeValueAsString(run.machine()),
        Json.MAPPER.writeValueAsString(run.attributes() == null ? Map.of() : run.attributes()),
        Json.MAPPER.writeValueAsString(run.failures() == null ? List.of() : run.failures()),
        hash).update() == 1;
  }

  private static Timestamp timestamp(Instant instant) {
    return instant == null ? null : Timestamp.from(instant);
  }

  static final String COPY_RESULTS = "COPY result (run_id, series_id, version_id, samples, n, min, median, mean, max,"
      + " stddev) FROM STDIN (FORMAT binary)";

  /** The results of one stored run, in their series' units, for {@link #copyResults(List)}. */
  record RunResults(UUID runId, long versionId, List<ResultUpload> results, List<Long> seriesIds) {}

  /** Loads all results of a run with one COPY, in the surrounding transaction. */
  void copyResults(UUID runId, long versionId, List<ResultUpload> results, List<Long> seriesIds) {
    copyResults(List.of(new RunResults(runId, versionId, results, seriesIds)));
  }

  /** Loads the results of many runs with one binary COPY (bulk import), in the surrounding transaction. */
  void copyResults(List<RunResults> runs) {
    BinaryCopy rows = new BinaryCopy(runs.size() * 16384);
    for (RunResults run : runs) {
      appendRows(rows, run);
    }
    Connection con = DataSourceUtils.getConnection(dataSource);
    try {
      rows.copyIn(con, COPY_RESULTS);
    } catch (SQLException | IOException e) {
      throw new IllegalStateException("COPY of results failed", e);
    } finally {
      DataSourceUtils.releaseConnection(con, dataSource);
    }
  }

  /**
   * As {@link #copyResults(List)} for a bulk import's batch: the rows are sent while they are made, so PostgreSQL
   * inserts while Java converts the next runs.
   */
  void streamResults(List<RunResults> runs) {
    Connection con = DataSourceUtils.getConnection(dataSource);
    BinaryCopy rows = null;
    try {
      rows = BinaryCopy.streaming(con, COPY_RESULTS);
      for (RunResults run : runs) {
        appendRows(rows, run);
      }
      rows.finish();
    } catch (SQLException | RuntimeException e) {
      if (rows != null) {
        rows.cancel();
      }
      throw new IllegalStateException("COPY of results failed", e);
    } finally {
      DataSourceUtils.releaseConnection(con, dataSource);
    }
  }

  private static void appendRows(BinaryCopy rows, RunResults run) {
    List<ResultUpload> results = run.results();
    for (int i = 0; i < results.size(); i++) {
      ResultUpload r = results.get(i);
      rows.row(10).uuid(run.runId()).int8(run.seriesIds().get(i)).int8(run.versionId());
      List<Double> samples = r.samples();
      if (samples == null) {
        // a summary-only result: no samples, the statistics the tool wrote (NULL where it wrote none)
        rows.float8Array(List.of()).integer(r.n()).float8OrNull(r.min()).float8OrNull(r.median())
            .float8(r.mean()).float8OrNull(r.max()).float8OrNull(r.stddev());
      } else {
        // raw samples only: readers derive their n, min, median, mean and max (SampleStats)
        rows.float8Array(samples).nul().nul().nul().nul().nul().nul();
      }
    }
  }
}
