package org.perftrack.server.ingest;

import java.io.IOException;
import java.io.StringReader;
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
import org.perftrack.formats.Json;
import org.perftrack.formats.RunUpload;
import org.perftrack.formats.RunUpload.ResultUpload;
import org.perftrack.server.problems.InvalidInput;
import org.postgresql.PGConnection;
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

  record SeriesRow(long id, String benchmark, String metric, String unit, String direction) {}

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
      } else if (!s.direction().equals(r.direction())) {
        problems.put("results[" + i + "].direction", "is " + r.direction() + " but earlier runs of "
            + r.benchmark() + " " + r.metric() + " on this machine said " + s.direction());
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

  static final String COPY_RESULTS =
      "COPY result (run_id, series_id, version_id, samples, n, min, median, mean, max, stddev) FROM STDIN";

  /** The results of one stored run, in their series' units, for {@link #copyResults(List)}. */
  record RunResults(UUID runId, long versionId, List<ResultUpload> results, List<Long> seriesIds) {}

  /** Loads all results of a run with one COPY, in the surrounding transaction. */
  void copyResults(UUID runId, long versionId, List<ResultUpload> results, List<Long> seriesIds) {
    copyResults(List.of(new RunResults(runId, versionId, results, seriesIds)));
  }

  /** Loads the results of many runs with one COPY (bulk import), in the surrounding transaction. */
  void copyResults(List<RunResults> runs) {
    StringBuilder text = new StringBuilder(runs.size() * 4096);
    for (RunResults run : runs) {
      appendRows(text, run);
    }
    Connection con = DataSourceUtils.getConnection(dataSource);
    try {
      con.unwrap(PGConnection.class).getCopyAPI().copyIn(COPY_RESULTS, new StringReader(text.toString()));
    } catch (SQLException | IOException e) {
      throw new IllegalStateException("COPY of results failed", e);
    } finally {
      DataSourceUtils.releaseConnection(con, dataSource);
    }
  }

  private static void appendRows(StringBuilder text, RunResults run) {
    UUID runId = run.runId();
    long versionId = run.versionId();
    List<ResultUpload> results = run.results();
    List<Long> seriesIds = run.seriesIds();
    for (int i = 0; i < results.size(); i++) {
      List<Double> samples = results.get(i).samples();
      if (samples == null) {
        appendSummary(text, runId, seriesIds.get(i), versionId, results.get(i));
        continue;
      }
      SampleSummary s = SampleSummary.of(samples);
      text.append(runId).append('\t').append(seriesIds.get(i)).append('\t').append(versionId).append("\t{");
      for (int j = 0; j < samples.size(); j++) {
        if (j > 0) {
          text.append(',');
        }
        text.append(samples.get(j).doubleValue());
      }
      text.append("}\t").append(s.n()).append('\t').append(s.min()).append('\t').append(s.median())
          .append('\t').append(s.mean()).append('\t').append(s.max()).append("\t\\N\n");
    }
  }

  /** A summary-only result: no samples, the statistics the tool wrote (\N where it wrote none). */
  private static void appendSummary(StringBuilder text, UUID runId, long seriesId, long versionId, ResultUpload r) {
    text.append(runId).append('\t').append(seriesId).append('\t').append(versionId).append("\t{}\t").append(r.n())
        .append('\t').append(copyValue(r.min())).append('\t').append(copyValue(r.median()))
        .append('\t').append(r.mean().doubleValue()).append('\t').append(copyValue(r.max()))
        .append('\t').append(copyValue(r.stddev())).append('\n');
  }

  private static String copyValue(Double value) {
    return value == null ? "\\N" : String.valueOf(value.doubleValue());
  }
}
