package org.perftrack.server.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * The test playing a lab agent over HTTP: registers, claims jobs and answers each with made-up runs of
 * one benchmark ({@code spawn}), one batch per job, whose level a function of the version decides.
 */
public final class FakeAgent {

  private final Http http;
  private final String token;
  private final String product;
  private final String machine;
  private long id;

  public FakeAgent(Http http, String token, String product, String machine) {
    this.http = http;
    this.token = token;
    this.product = product;
    this.machine = machine;
  }

  public long register(String... targets) {
    Http.Response r = http.postJson("/api/v1/lab/agents", json(new LabApi.Registration(product, machine,
        "test", 1, List.of(targets))), token);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    id = r.json().get("id").asLong();
    return id;
  }

  /** The next job, or null. */
  public JsonNode claim() {
    Http.Response r = http.postJson("/api/v1/lab/agents/" + id + "/claim", "{}", token);
    assertThat(r.status()).as(r.body()).isIn(200, 204);
    return r.status() == 204 ? null : r.json();
  }

  public Http.Response finish(JsonNode job, String lease, List<String> runIds) {
    return http.postJson("/api/v1/lab/jobs/" + job.get("id").asLong() + "/finish",
        "{\"lease\": \"" + lease + "\", \"runIds\": " + json(runIds) + "}", token);
  }

  /** Uploads one run of {@code spawn} at this level (five samples within ±1 %); returns its id. */
  public String upload(String batch, String version, double level) {
    RunUpload r = Fixtures.run(product, version, machine,
        result("spawn", level * 0.99, level * 1.01, level, level * 0.995, level * 1.005));
    RunUpload run = new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, r.startedAt(),
        r.finishedAt(), r.attributes(), r.results(), r.failures());
    Http.Response response = http.postJson("/api/v1/runs", json(run), token);
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return run.id();
  }

  /** Runs jobs until the regression's bisection is done; returns the middle version of every round. */
  public List<String> bisect(long regression, Function<String, Double> level) {
    List<String> middles = new ArrayList<>();
    while (true) {
      JsonNode[] claimed = new JsonNode[1];
      try {
        await().atMost(Duration.ofSeconds(30)).until(() -> (claimed[0] = claim()) != null
            || "done".equals(state(regression).path("status").asString(null)));
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError("no job and no finished bisection; regression " + regression + ": "
            + http.get("/api/v1/regressions/" + regression + "/bisection").body(), e);
      }
      JsonNode job = claimed[0];
      if (job == null) {
        return middles;
      }
      List<String> versions = job.get("versions").valueStream().map(JsonNode::asString).toList();
      String middle = versions.get(1);
      middles.add(middle);
      String batch = UUID.randomUUID().toString();
      List<String> ids = versions.stream().map(v -> upload(batch, v, level.apply(v))).toList();
      assertThat(finish(job, job.get("lease").asString(), ids).status()).isEqualTo(200);
    }
  }

  public JsonNode state(long regression) {
    Http.Response r = http.get("/api/v1/regressions/" + regression + "/bisection");
    return r.status() == 200 ? r.json() : tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
  }
}
