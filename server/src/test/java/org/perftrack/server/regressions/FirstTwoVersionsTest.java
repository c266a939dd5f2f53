package org.perftrack.server.regressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.MachineInfo;
import org.perftrack.wire.RunUpload.ResultUpload;

/** The "done when": two versions measured by the agent in one session, and the pages show the step. */
class FirstTwoVersionsTest extends IntegrationTest {

  @Test
  void twoInterleavedVersionsShowTheirRegressionOnHomeChartAndCompare() {
    String product = unique("cygwin");
    String machine = unique("xp");
    String batch = UUID.randomUUID().toString();
    upload(product, machine, batch, "1.5.19-4", 18.0);
    upload(product, machine, batch, "1.5.24-2", 48.0);

    String home = http().page("/").body();
    String compare = http().page("/compare?product=" + product + "&machine=" + machine).body();
    String series = http().page("/products/" + product + "/series?benchmark=write-64b&metric=time-per-op").body();
    String chart = http().get("/products/" + product + "/series/chart?benchmark=write-64b&metric=time-per-op").body();

    assertThat(compare).contains("1.5.19-4", "1.5.24-2", "class=\"badge regression\">regression");
    assertThat(series).contains("data-chart-src=", "1.5.24-2");
    assertThat(chart).as("the chart's data, fetched by the page").contains("1.5.19-4", "1.5.24-2");
    assertThat(home).as("the home page lists the step as an open regression").contains(product, "write-64b");
  }

  private void upload(String product, String machine, String batch, String version, double level) {
    List<Double> samples = List.of(level * 0.99, level * 1.01, level, level * 1.005, level * 0.995);
    RunUpload run = new RunUpload(UUID.randomUUID().toString(), product, version,
        new MachineInfo(machine, "Windows XP SP2", "AMD64", 1, 1024L, Map.of()), "posix", batch, null, null, Map.of(),
        List.of(new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, samples),
            new ResultUpload("fork", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, List.of(75.0, 76.0, 74.0, 75.5, 74.5))),
        List.of());
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
  }
}
