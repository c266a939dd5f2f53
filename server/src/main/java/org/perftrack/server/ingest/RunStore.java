package org.perftrack.server.ingest;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.perftrack.formats.Json;
import org.perftrack.formats.RunUpload;
import org.perftrack.formats.RunUpload.ResultUpload;
import org.perftrack.server.versions.VersionKey;
import org.perftrack.server.problems.InvalidInput;
import org.postgresql.PGConnection;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of ingestion. Reads before it writes so that the common case (known product, version,
 * machine and series) takes no row locks, and loads results with {@code COPY}.
 */
@Repository
class RunStore {

  private final JdbcClient jdbc;
  private final DataSource dataSource;

  RunStore(JdbcClient jdbc, DataSource dataSource) {
    this.jdbc = jdbc;
    this.dataSource = dataSource;
  }

  /** What the database already knows of a run's product, version and machine (null where unknown). */
  record Known(String contentHash, Long productId, Long versionId, Long machineId) {}

  static final String KNOWN = """
      SELECT (SELECT content_hash FROM run WHERE id = :id) AS content_hash,
             p.id AS product_id,
             (SELECT v.id FROM version v WHERE v.product_id = p.id AND v.name = :version) AS version_id,
             (SELECT m.id FROM machine m WHERE m.name = :machine AND m.os IS NOT DISTINCT FROM :os
                AND m.cpu IS NOT DISTINCT FROM :cpu AND m.cores IS NOT DISTINCT FROM :cores
                AND m.memory_mb IS NOT DISTINCT FROM :memory AND m.attributes = CAST(:attributes AS jsonb)) AS machine_id
      FROM (SELECT 1) AS one LEFT JOIN product p ON p.name = :product""";

  /** One round trip for the common case: everything but the run itself exists already. */
  Known known(UUID id, RunUpload run) {
    RunUpload.MachineInfo m = run.machine();
    return jdbc.sql(KNOWN).param("id", id).param("version", run.version()).param("machine", m.name())
        .param("os", m.os(), java.sql.Types.VARCHAR).param("cpu", m.cpu(), java.sql.Types.VARCHAR)
        .param("cores", m.cores(), java.sql.Types.INTEGER).param("memory", m.memoryMb(), java.sql.Types.BIGINT)
        .param("attributes", attributesJson(m)).param("product", run.product())
        .query(Known.class).single();
  }

  static final String FIND_HASH = "SELECT content_hash FROM run WHERE id = ?";

  Optional<String> contentHash(UUID runId) {
    return jdbc.sql(FIND_HASH).param(runId).query(String.class).optional();
  }

  static final String FIND_PRODUCT = "SELECT id FROM product WHERE name = ?";
  static final String INSERT_PRODUCT = "INSERT INTO product (name) VALUES (?) ON CONFLICT (name) DO NOTHING";

  long productId(String name) {
    return findOrInsert(FIND_PRODUCT, INSERT_PRODUCT, name);
  }

  static final String FIND_VERSION = "SELECT id FROM version WHERE product_id = ? AND name = ?";
  static final String INSERT_VERSION = """
      INSERT INTO version (product_id, name, sort_key) VALUES (?, ?, ?)
      ON CONFLICT (product_id, name) DO NOTHING""";

  long versionId(long productId, String name) {
    Optional<Long> id = jdbc.sql(FIND_VERSION).params(productId, name).query(Long.class).optional();
    if (id.isPresent()) {
      return id.get();
    }
    jdbc.sql(INSERT_VERSION).params(productId, name, VersionKey.of(name)).update();
    return jdbc.sql(FIND_VERSION).params(productId, name).query(Long.class).single();
  }

  static final String UPSERT_MACHINE = """
      INSERT INTO machine (name, os, cpu, cores, memory_mb, attributes) VALUES (?, ?, ?, ?, ?, ?::jsonb)
      ON CONFLICT (name) DO UPDATE SET os = excluded.os, cpu = excluded.cpu, cores = excluded.cores,
        memory_mb = excluded.memory_mb, attributes = excluded.attributes, last_seen = now()
      RETURNING id""";

  /** Creates the machine, or updates it to what this run says about it (called only when that changed). */
  long machineId(RunUpload.MachineInfo m) {
    Object[] params = {m.name(), m.os(), m.cpu(), m.cores(), m.memoryMb(), attributesJson(m)};
    return jdbc.sql(UPSERT_MACHINE).params(params).query(Long.class).single();
  }

  private static String attributesJson(RunUpload.MachineInfo m) {
    return Json.MAPPER.writeValueAsString(m.attributes() == null ? Map.of() : m.attributes());
  }

  private long findOrInsert(String find, String insert, String name) {
    Optional<Long> id = jdbc.sql(find).param(name).query(Long.class).optional();
    if (id.isPresent()) {
      return id.get();
    }
    jdbc.sql(insert).param(name).update();
    return jdbc.sql(find).param(name).query(Long.class).single();
  }

  record SeriesRow(long id, String benchmark, String metric, String unit, String direction) {}

  static final String FIND_SERIES = """
      SELECT s.id, s.benchmark, s.metric, s.unit, s.direction
      FROM series s JOIN unnest(?::text[], ?::text[]) AS k(benchmark, metric)
        ON s.benchmark = k.benchmark AND s.metric = k.metric
      WHERE s.product_id = ? AND s.machine_id = ?""";
  static final String INSERT_SERIES = """
      INSERT INTO series (product_id, machine_id, benchmark, metric, unit, direction)
      SELECT ?, ?, * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[])
      ON CONFLICT (product_id, machine_id, benchmark, metric) DO NOTHING""";

  /**
   * The series id of every result, in result order. A result whose unit or direction differs from
   * its existing series is refused: samples in µs and in ms must never share a series.
   */
  List<Long> seriesIds(long productId, long machineId, List<ResultUpload> results) {
    Map<String, SeriesRow> found = findSeries(productId, machineId, results);
    if (found.size() < results.size()) {
      List<ResultUpload> missing = results.stream().filter(r -> !found.containsKey(key(r))).toList();
      jdbc.sql(INSERT_SERIES).params(productId, machineId,
          column(missing, ResultUpload::benchmark), column(missing, ResultUpload::metric),
          column(missing, ResultUpload::unit), column(missing, ResultUpload::direction)).update();
      found.putAll(findSeries(productId, machineId, missing));
    }
    List<Long> ids = new ArrayList<>(results.size());
    Map<String, String> problems = new LinkedHashMap<>();
    for (int i = 0; i < results.size(); i++) {
      ResultUpload r = results.get(i);
      SeriesRow s = found.get(key(r));
      if (!s.unit().equals(r.unit())) {
        problems.put("results[" + i + "].unit", "is '" + r.unit() + "' but earlier runs of "
            + r.benchmark() + " " + r.metric() + " on this machine used '" + s.unit() + "'");
      } else if (!s.direction().equals(r.direction())) {
        problems.put("results[" + i + "].direction", "is " + r.direction() + " but earlier runs of "
            + r.benchmark() + " " + r.metric() + " on this machine said " + s.direction());
      }
      ids.add(s.id());
    }
    if (!problems.isEmpty()) {
      throw new InvalidInput(problems);
    }
    return ids;
  }

  private Map<String, SeriesRow> findSeries(long productId, long machineId, List<ResultUpload> results) {
    Map<String, SeriesRow> byKey = new HashMap<>();
    jdbc.sql(FIND_SERIES)
        .params(column(results, ResultUpload::benchmark), column(results, ResultUpload::metric), productId, machineId)
        .query(SeriesRow.class).list()
        .forEach(s -> byKey.put(s.benchmark() + '\0' + s.metric(), s));
    return byKey;
  }

  private static String key(ResultUpload r) {
    return r.benchmark() + '\0' + r.metric();
  }

  private static String[] column(List<ResultUpload> results, java.util.function.Function<ResultUpload, String> f) {
    return results.stream().map(f).toArray(String[]::new);
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
      "COPY result (run_id, series_id, version_id, samples, n, min, median, mean, max) FROM STDIN";

  /** Loads all results of a run with one COPY, in the surrounding transaction. */
  void copyResults(UUID runId, long versionId, List<ResultUpload> results, List<Long> seriesIds) {
    StringBuilder text = new StringBuilder(results.size() * 96);
    for (int i = 0; i < results.size(); i++) {
      List<Double> samples = results.get(i).samples();
      SampleSummary s = SampleSummary.of(samples);
      text.append(runId).append('\t').append(seriesIds.get(i)).append('\t').append(versionId).append("\t{");
      for (int j = 0; j < samples.size(); j++) {
        if (j > 0) {
          text.append(',');
        }
        text.append(samples.get(j).doubleValue());
      }
      text.append("}\t").append(s.n()).append('\t').append(s.min()).append('\t').append(s.median())
          .append('\t').append(s.mean()).append('\t').append(s.max()).append('\n');
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
}
