package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The tails of recent points a server keeps per series give the same windows as reading the points, after uploads
 * in and out of version order, a second run of a version, and writes that do not go through the tails (a bulk
 * import, as another server instance would write).
 */
class SeriesTailTest extends IntegrationTest {

  @Autowired
  WindowRead windows;

  @Autowired
  KnownNames names;

  @Autowired
  SeriesLocks locks;

  @Autowired
  SeriesTails tails;

  @Autowired
  SeriesStamps stamps;

  @Autowired
  PointWrites points;

  @Autowired
  TransactionTemplate tx;

  @Autowired
  DetectionProperties properties;

  private static String version(int i) {
    return String.format("1.%03d", i);
  }

  private void upload(String product, String machine, String version, double level) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine,
        result("write-64b", level, level + 0.1, level - 0.1, level + 0.2, level - 0.2))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }

  private long seriesId(String product, String machine) {
    return jdbc.sql("""
        SELECT s.id FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
        WHERE p.name = ? AND m.name = ? AND s.benchmark = 'write-64b'""").params(product, machine)
        .query(Long.class).single();
  }

  private VersionRef ref(String product, String name) {
    long id = jdbc.sql(
        "SELECT v.id FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.name = ?")
        .params(product, name).query(Long.class).single();
    return names.version(id);
  }

  /** What a window holds: its version names and levels, and how many lie before the version. */
  private List<String> window(long series, VersionRef at) {
    int side = 2 * properties.window();
    return tx.execute(status -> {
      locks.lockSeries(List.of(series));
      WindowRead.Around a = windows.around(List.of(series), at, side).get(series);
      List<String> out = new ArrayList<>();
      out.add("before " + a.before());
      a.window().points().forEach(p -> out.add(p.version() + "=" + p.summary().level()));
      out.add("ids " + new java.util.TreeMap<>(a.window().versionIds()));
      return out;
    });
  }

  /** The window from the kept tail (asserted to be used) and as read from the points. */
  private void assertSameAsRead(long series, VersionRef at) {
    List<String> kept = window(series, at);
    tails.forgetTails();
    List<String> read = window(series, at);
    assertThat(kept).isEqualTo(read).hasSizeGreaterThan(3);
  }

  @Test
  void uploadsInAndOutOfOrderAndASecondRunGiveTheWindowsReadFromThePoints() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (int i = 1; i <= 40; i += 2) {
      upload(product, machine, version(i), 18.0 + i % 3);
    }
    long series = seriesId(product, machine);
    SeriesTail tail = tails.tail(series);
    assertThat(tail).as("kept after the uploads").isNotNull();
    assertThat(tail.stamp()).isEqualTo(jdbc.sql("SELECT stamp FROM detection_stamp WHERE series_id = ?")
        .param(series).query(Long.class).single());
    assertThat(tail.versions().get(tail.versions().size() - 1).name()).isEqualTo(version(39));

    // a version that sorts between the last ones, then a second run of a version in the middle of the tail
    upload(product, machine, version(36), 30.0);
    upload(product, machine, version(33), 25.0);
    assertThat(tails.tail(series).versions().stream().map(VersionRef::name))
        .contains(version(36), version(33));

    int next = 41;
    for (String v : new String[] {version(39), version(36), version(33), version(21), version(1)}) {
      upload(product, machine, version(next), 18.0 + next % 5); // keeps the tail again (the check forgets them)
      assertThat(tails.tail(series)).isNotNull();
      assertSameAsRead(series, ref(product, version(next)));
      upload(product, machine, version(next + 2), 18.0);
      assertSameAsRead(series, ref(product, v));
      next += 4;
    }
  }

  @Test
  void aBulkImportMakesTheKeptTailStale() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (int i = 10; i <= 40; i++) {
      upload(product, machine, version(i), 18.0);
    }
    long series = seriesId(product, machine);
    long stamp = tails.tail(series).stamp();

    // versions between the uploaded ones, written by the import path (no tails kept there)
    StringBuilder ndjson = new StringBuilder();
    for (String v : new String[] {"1.035a", "1.038a"}) {
      ndjson.append(json(run(product, v, machine, result("write-64b", 48.0, 48.1, 47.9, 48.2, 47.8)))).append('\n');
    }
    Http.Response r = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/runs:import"))
        .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
        .POST(HttpRequest.BodyPublishers.ofString(ndjson.toString())));
    assertThat(r.status()).as(r.body()).isEqualTo(200);

    assertThat(jdbc.sql("SELECT stamp FROM detection_stamp WHERE series_id = ?").param(series).query(Long.class)
        .single()).as("the import stamped the series").isNotEqualTo(stamp);
    upload(product, machine, version(41), 18.0);
    List<String> window = window(series, ref(product, version(41)));
    assertThat(window).anyMatch(p -> p.startsWith("1.035a=48")).anyMatch(p -> p.startsWith("1.038a=48"));
    assertSameAsRead(series, ref(product, version(41)));
  }

  @Test
  void aStampWrittenElsewhereIsNeverTakenForTheKeptOne() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (int i = 1; i <= 30; i++) {
      upload(product, machine, version(i), 18.0);
    }
    long series = seriesId(product, machine);
    VersionRef last = ref(product, version(30));
    // another instance changes a point and stamps the series, as its writers do
    tx.executeWithoutResult(status -> {
      jdbc.sql("UPDATE detection_point SET level = 99 WHERE series_id = ? AND version_id = ?")
          .params(series, last.id()).update();
      stamps.stamp(List.of(series));
    });
    assertThat(window(series, last)).contains(version(30) + "=99.0");

    // a tail kept by a transaction that then rolled back is not used either
    upload(product, machine, version(31), 18.0);
    VersionRef next = ref(product, version(31));
    tx.executeWithoutResult(status -> {
      locks.lockSeries(List.of(series));
      Map<Long, WindowRead.Around> around = windows.around(List.of(series), next, 2 * properties.window());
      points.writePoints(Map.of(series, new VersionLevel(77.0, Double.NaN, true, 5)), next, around, false);
      assertThat(tails.tail(series).points()).anyMatch(p -> p.summary().level() == 77.0);
      status.setRollbackOnly();
    });
    assertThat(window(series, next)).contains(version(31) + "=18.0").noneMatch(p -> p.contains("=77.0"));
  }
}
