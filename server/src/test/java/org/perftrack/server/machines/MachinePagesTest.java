package org.perftrack.server.machines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;

class MachinePagesTest extends IntegrationTest {

  @Test
  void runPageShowsRawSamplesEnvironmentAndTheMachineAsItWasThen() {
    RunUpload run = run(unique("cygwin"), "1.5.24-2", unique("xp"), result("write-64b", 48.25, 47.9, 48.4));
    upload(run);

    Http.Response page = http().page("/runs/" + run.id());

    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).contains("48.25", "47.9", "48.4", "gcc 3.4.4", "NOD32", "Windows XP SP2", "1.5.24-2");
  }

  @Test
  void aLargeMemoryReadsWithItsDigitsGroupedAsOtherLargeNumbers() {
    RunUpload base = run(unique("linux"), "6.1.0", unique("epyc"), result("fork", 70.0));
    RunUpload run = new RunUpload(base.id(), base.product(), base.version(),
        new RunUpload.MachineInfo(base.machine().name(), "Linux 6.1", "AMD EPYC", 2, 24_105L, java.util.Map.of()),
        base.suite(), null, null, null, base.attributes(), base.results(), base.failures());
    upload(run);

    assertThat(http().page("/runs/" + run.id()).text()).contains("Memory 24,105 MB");
    assertThat(http().page("/machines/" + run.machine().name()).text()).contains("Memory 24,105 MB");
  }

  @Test
  void machinePageListsItsAttributesAndTheVersionsMeasuredNewestFirst() {
    String product = unique("cygwin");
    String machine = unique("xp");
    upload(run(product, "1.5.19-4", machine, result("fork", 70.0)));
    upload(run(product, "1.7.10", machine, result("fork", 70.0)));
    upload(run(product, "1.7.9", machine, result("fork", 70.0)));

    Http.Response page = http().page("/machines/" + machine);

    assertThat(page.status()).isEqualTo(200);
    String body = page.body();
    assertThat(body).contains("AMD64 3200+", "NOD32", "1024 MB");
    assertThat(body.indexOf(">1.7.10<")).isLessThan(body.indexOf(">1.7.9<"));
    assertThat(body.indexOf(">1.7.9<")).isLessThan(body.indexOf(">1.5.19-4<"));
  }

  @Test
  void lastSeenIsTheLatestRunEvenWhenTheMachineDescribedItselfTheSameWay() {
    String machine = unique("xp");
    upload(run(unique("cygwin"), "1.5.19-4", machine, result("fork", 70.0)));
    jdbc.sql("UPDATE machine SET last_seen = '2007-03-07T19:00:00Z', first_seen = '2007-03-07T19:00:00Z' WHERE name = ?")
        .param(machine).update();
    upload(run(unique("cygwin"), "1.5.24-2", machine, result("fork", 70.0)));

    String body = http().page("/machines/" + machine).body();

    assertThat(body).containsOnlyOnce(">2007-03-0");
  }

  @Test
  void unknownRunsAndMachinesArePagesSaying404() {
    assertThat(http().page("/runs/" + UUID.randomUUID()).status()).isEqualTo(404);
    assertThat(http().page("/runs/not-a-uuid").status()).isEqualTo(404);
    Http.Response machine = http().page("/machines/" + unique("nobody"));
    assertThat(machine.status()).isEqualTo(404);
    assertThat(machine.body()).contains("Not found");
  }

  private void upload(RunUpload run) {
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
  }
}
