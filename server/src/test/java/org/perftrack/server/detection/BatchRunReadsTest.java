package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.sessionSamples;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The interleaved runs detection reads for a run of a session: those of the versions in its windows, and, for a
 * series with fewer than two of the session's versions there, the session's runs of versions near the windows, no
 * further than twice as many of the product's versions as the windows reach, however far apart the session's
 * versions are.
 */
class BatchRunReadsTest extends IntegrationTest {

  private static final int SIDE = 24;

  @Autowired
  private BatchRunReads reads;

  private final Random random = new Random(11);

  private RunUpload measured(String product, String machine, String version, String batch, Integer size) {
    RunUpload r = run(product, version, machine, new RunUpload.ResultUpload("write-64b", "time-per-op", "us",
        RunUpload.LOWER_IS_BETTER, sessionSamples(random, 40)));
    return new RunUpload(r.id(), product, version, r.machine(), r.suite(), batch, null, null, r.attributes(),
        r.results(), r.failures(), null, null, size);
  }

  @Test
  void aSessionsRunsOutsideTheWindowsAreReadOnlyWhereTheWindowsWouldReachTwice() {
    String product = unique("reads");
    String machine = unique("lab");
    StringBuilder lines = new StringBuilder();
    for (int v = 1; v <= 120; v++) {
      lines.append(json(measured(product, machine, "1." + v + "-1", null, null))).append('\n');
    }
    Http.Response imported = http().postBytes("/api/v1/runs:import", lines.toString().getBytes(StandardCharsets.UTF_8),
        "application/x-ndjson", TOKEN);
    assertThat(imported.status()).as(imported.body()).isEqualTo(200);
    // a session measuring three old versions again, 50 and 40 versions apart (the windows reach 24 each way)
    String batch = UUID.randomUUID().toString();
    for (String version : List.of("1.10-1", "1.60-1", "1.100-1")) {
      Http.Response r = http().postJson("/api/v1/runs", json(measured(product, machine, version, batch, 3)), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }
    assertThat(jdbc.sql("SELECT count(*) FROM session_pending p JOIN run r ON r.id = p.run_id WHERE r.batch = ?")
        .param(UUID.fromString(batch)).query(Long.class).single()).as("judged").isZero();
    long series = jdbc.sql("""
        SELECT s.id FROM series s JOIN product p ON p.id = s.product_id WHERE p.name = ?""").param(product)
        .query(Long.class).single();

    // 1.100-1's windows hold none of the session's other versions: 1.60-1 is 40 versions before (within twice the
    // windows' reach), 1.10-1 is 90 before (beyond)
    assertThat(versionsRead(series, batch, product, "1.100-1")).containsExactly("1.100-1", "1.60-1");
    // 1.10-1: the session's other versions are 50 and 90 versions on, both beyond; read no further
    assertThat(versionsRead(series, batch, product, "1.10-1")).containsExactly("1.10-1");
    // 1.60-1: 1.100-1 within reach (40 on), 1.10-1 not (50 before)
    assertThat(versionsRead(series, batch, product, "1.60-1")).containsExactly("1.60-1", "1.100-1");
  }

  @Test
  void ofASessionsRunsOfOneVersionTheFirstThatMeasuredEachSeriesIsRead() {
    String product = unique("reads");
    String machine = unique("lab");
    for (int v = 1; v <= 6; v++) {
      assertThat(http().postJson("/api/v1/runs", json(measured(product, machine, "1." + v + "-1", null, null,
          "write-64b", "fork")), TOKEN).status()).isEqualTo(201);
    }
    // a session of three runs of one version: the first measured write-64b only, the two others both benchmarks
    String batch = UUID.randomUUID().toString();
    List<RunUpload> sent = List.of(measured(product, machine, "1.7-1", batch, 3, "write-64b"),
        measured(product, machine, "1.7-1", batch, 3, "write-64b", "fork"),
        measured(product, machine, "1.7-1", batch, 3, "write-64b", "fork"));
    for (RunUpload r : sent) {
      assertThat(http().postJson("/api/v1/runs", json(r), TOKEN).status()).isEqualTo(201);
    }
    long write = series(product, "write-64b");
    long fork = series(product, "fork");
    Map<String, Object> v = version(product, "1.7-1");
    long id = ((Number) v.get("id")).longValue();

    Map<Long, List<BatchRun>> windows = reads.batchRuns(List.of(write, fork), UUID.fromString(batch), List.of(id),
        ((Number) v.get("product_id")).longValue(), (String) v.get("sort_key"), SIDE);
    Map<Long, List<BatchRun>> stepped = reads.batchRuns(List.of(write, fork), List.of(id));
    for (Map<Long, List<BatchRun>> read : List.of(windows, stepped)) {
      assertThat(read.get(write)).as("one run of the version: the session's first").singleElement()
          .satisfies(r -> assertThat(r.samples()).containsExactly(samples(sent.get(0), "write-64b")));
      assertThat(read.get(fork)).as("the first run that measured fork").singleElement()
          .satisfies(r -> assertThat(r.samples()).containsExactly(samples(sent.get(1), "fork")));
    }
  }

  @Test
  void readsKeptWhileASessionsRunsAreJudgedOneAfterTheOtherAreThoseReadAfresh() {
    String product = unique("reads");
    String machine = unique("lab");
    String other = UUID.randomUUID().toString(); // a judged session measuring two versions
    for (int v = 1; v <= 4; v++) {
      assertThat(http().postJson("/api/v1/runs", json(measured(product, machine, "1." + v + "-1", v >= 3 ? other : null,
          null, "write-64b", "fork")), TOKEN).status()).isEqualTo(201);
    }
    // a session of four runs, three sent: one of 1.4-1 measuring fork only, then two of 1.5-1; they wait (size 4)
    String batch = UUID.randomUUID().toString();
    List<RunUpload> sent = List.of(measured(product, machine, "1.5-1", batch, 4, "write-64b", "fork"),
        measured(product, machine, "1.4-1", batch, 4, "fork"),
        measured(product, machine, "1.5-1", batch, 4, "write-64b", "fork"));
    for (RunUpload r : sent) {
      assertThat(http().postJson("/api/v1/runs", json(r), TOKEN).status()).isEqualTo(201);
    }
    List<Long> series = List.of(series(product, "write-64b"), series(product, "fork"));
    List<Long> versions = jdbc.sql("""
        SELECT v.id FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? ORDER BY v.sort_key""")
        .param(product).query(Long.class).list();
    BatchRunReads.Kept kept = reads.kept();
    assertThat(read(kept.batchRuns(series, versions))).isEqualTo(read(reads.batchRuns(series, versions)))
        .as("the other session's runs").isNotEmpty();
    // judged in version order, as a session's completing upload does: 1.4-1, then 1.5-1's two runs
    for (RunUpload r : List.of(sent.get(1), sent.get(0), sent.get(2))) {
      Map<String, Object> run = jdbc.sql("SELECT id, batch, version_id, received_at FROM run WHERE id = ?")
          .param(UUID.fromString(r.id())).query().singleRow();
      jdbc.sql("DELETE FROM session_pending WHERE run_id = ?").param(run.get("id")).update();
      kept.judging((UUID) run.get("id"), (UUID) run.get("batch"), ((Number) run.get("version_id")).longValue(),
          ((java.sql.Timestamp) run.get("received_at")).toInstant().atOffset(java.time.ZoneOffset.UTC));
      assertThat(read(kept.batchRuns(series, versions))).as("after judging " + r.version())
          .isEqualTo(read(reads.batchRuns(series, versions)));
      assertThat(read(kept.batchRuns(series.subList(1, 2), versions.subList(3, 5))))
          .isEqualTo(read(reads.batchRuns(series.subList(1, 2), versions.subList(3, 5))));
    }
    assertThat(read(reads.batchRuns(series, versions)).get(series.get(0))).as("write-64b: the session's 1.5-1 now")
        .anyMatch(r -> r.startsWith(batch + " 1.5-1 "));
  }

  /** Batch runs as "batch version samples", in their order, per series. */
  private static Map<Long, List<String>> read(Map<Long, List<BatchRun>> runs) {
    Map<Long, List<String>> out = new java.util.TreeMap<>();
    runs.forEach((series, list) -> out.put(series, list.stream().map(r -> r.batch() + " " + r.version() + " "
        + java.util.Arrays.toString(r.samples())).toList()));
    return out;
  }

  private static double[] samples(RunUpload run, String benchmark) {
    return run.results().stream().filter(r -> r.benchmark().equals(benchmark)).findFirst().orElseThrow().samples()
        .stream().mapToDouble(Double::doubleValue).toArray();
  }

  private RunUpload measured(String product, String machine, String version, String batch, Integer size,
      String... benchmarks) {
    RunUpload r = run(product, version, machine, java.util.Arrays.stream(benchmarks).map(b -> new RunUpload.ResultUpload(
        b, "time-per-op", "us", RunUpload.LOWER_IS_BETTER, sessionSamples(random, 40))).toArray(
        RunUpload.ResultUpload[]::new));
    return new RunUpload(r.id(), product, version, r.machine(), r.suite(), batch, null, null, r.attributes(),
        r.results(), r.failures(), null, null, size);
  }

  private long series(String product, String benchmark) {
    return jdbc.sql("""
        SELECT s.id FROM series s JOIN product p ON p.id = s.product_id
        WHERE p.name = ? AND s.benchmark = ?""").params(product, benchmark).query(Long.class).single();
  }

  private Map<String, Object> version(String product, String version) {
    return jdbc.sql("""
        SELECT v.id, v.product_id, v.sort_key FROM version v JOIN product p ON p.id = v.product_id
        WHERE p.name = ? AND v.name = ?""").params(product, version).query().singleRow();
  }

  /** The session's runs read for a run of {@code version} whose windows hold only that version of the session. */
  private List<String> versionsRead(long series, String batch, String product, String version) {
    Map<String, Object> v = version(product, version);
    Map<Long, List<BatchRun>> read = reads.batchRuns(List.of(series), UUID.fromString(batch),
        List.of(((Number) v.get("id")).longValue()), ((Number) v.get("product_id")).longValue(),
        (String) v.get("sort_key"), SIDE);
    return read.getOrDefault(series, List.of()).stream().map(BatchRun::version).toList();
  }
}
