package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;

/** Issue 12 item 14 (in part): input that used to be stored as garbage or refused wrongly. */
class BadInputTest extends IntegrationTest {

  @Test
  void samplesWhoseMeanOverflowsAreRefusedNamingTheField() {
    String machine = unique("m");
    Http.Response r = http().postJson("/api/v1/runs",
        json(run(unique("p"), "1.0", machine, result("write-64b", 1e308, 1e308, -1e308))), TOKEN);
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).contains("results[0].samples", "mean");
    assertThat(jdbc.sql("SELECT count(*) FROM machine WHERE name = ?").param(machine).query(Long.class).single())
        .as("nothing half-stored").isZero();
  }

  @Test
  void anUpperCaseResendOfARunIdIsTheSameRun() {
    RunUpload run = run(unique("p"), "1.0", unique("m"), result("write-64b", 48.2, 47.9, 48.4));
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    String upper = json(run).replace(run.id(), run.id().toUpperCase(Locale.ROOT));
    assertThat(upper).contains(run.id().toUpperCase(Locale.ROOT));
    Http.Response again = http().postJson("/api/v1/runs", upper, TOKEN);
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    assertThat(again.json().get("id").asString()).isEqualTo(run.id());
  }
}
