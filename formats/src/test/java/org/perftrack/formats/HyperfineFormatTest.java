package org.perftrack.formats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.formats.Golden.result;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import com.fasterxml.jackson.databind.JsonNode;

class HyperfineFormatTest {

  @Test
  void eachCommandBecomesABenchmarkWithItsWallTimesAsSamples() throws Exception {
    RunUpload run = Golden.convert("hyperfine", "hyperfine/basic.json");

    assertThat(run.results()).filteredOn(r -> r.metric().equals("wall-time")).extracting(ResultUpload::benchmark)
        .containsExactly("sleep 0.01", "true");
    ResultUpload sleep = result(run, "sleep 0.01", "wall-time");
    assertThat(sleep.unit()).isEqualTo("s");
    assertThat(sleep.direction()).isEqualTo("lower_is_better");
    assertThat(sleep.samples()).containsExactly(0.01087591, 0.010891773, 0.010926766000000001, 0.010972584,
        0.010952419000000001);
    JsonNode file = Golden.tree("hyperfine/basic.json");
    assertThat(result(run, "true", "wall-time").samples())
        .isEqualTo(Golden.doubles(file.at("/results/1/times")));
  }

  @Test
  void userAndSystemMeansAreSummaryOnlyResultsOverTheRuns() throws Exception {
    RunUpload run = Golden.convert("hyperfine", "hyperfine/basic.json");
    JsonNode file = Golden.tree("hyperfine/basic.json");

    ResultUpload user = result(run, "sleep 0.01", "user-time");
    assertThat(user.samples()).isNull();
    assertThat(user.n()).isEqualTo(5);
    assertThat(user.mean()).isEqualTo(file.at("/results/0/user").doubleValue());
    assertThat(user.unit()).isEqualTo("s");
    assertThat(result(run, "true", "system-time").mean()).isEqualTo(file.at("/results/1/system").doubleValue());
  }

  @Test
  void commandNamesAreUsedAndNonZeroExitCodesAreNoted() throws Exception {
    RunUpload run = Golden.convert("hyperfine", "hyperfine/named-with-failures.json");

    assertThat(run.results()).filteredOn(r -> r.metric().equals("wall-time")).extracting(ResultUpload::benchmark)
        .containsExactly("list /usr", "failing grep");
    assertThat(result(run, "failing grep", "wall-time").samples()).hasSize(4);
    assertThat(run.attributes().get("note"))
        .isEqualTo("'failing grep' exited non-zero in 4 of 4 runs (exit codes 1)");
    assertThat(run.failures()).isEmpty();
  }

  @Test
  void peakMemoryOfNewerHyperfineIsAMetricAndASignalCountsAsAFailure() throws Exception {
    String json = """
        {"results": [{"command": "build", "times": [2.0, 2.1, 2.2], "exit_codes": [0, null, 0],
                      "memory_usage_byte": [1048576, 1050000, 1049000]}]}""";
    RunUpload run = Formats.byName("hyperfine").convert(json.getBytes(UTF_8), "new.json", Golden.CONTEXT);

    ResultUpload memory = result(run, "build", "max-rss");
    assertThat(memory.unit()).isEqualTo("B");
    assertThat(memory.direction()).isEqualTo("lower_is_better");
    assertThat(memory.samples()).containsExactly(1048576.0, 1050000.0, 1049000.0);
    assertThat(run.attributes()).containsEntry("note", "'build' exited non-zero in 1 of 3 runs (exit codes signal)");
  }

  @Test
  void runIsTaggedWithTheContextAndNamedAfterTheFormat() throws Exception {
    RunUpload run = Golden.convert("hyperfine", "hyperfine/basic.json");

    assertThat(run.product()).isEqualTo("demo");
    assertThat(run.version()).isEqualTo("1.2.3");
    assertThat(run.machine().name()).isEqualTo("ci-runner-1");
    assertThat(run.suite()).isEqualTo("hyperfine");
    assertThat(UUID.fromString(run.id())).isNotNull();
    assertThat(run.startedAt()).as("hyperfine writes no date").isNull();
  }

  @Test
  void givenRunIdIsKeptSoThatCiResendsAreIdempotent() throws Exception {
    String id = "6f1c3a52-1c1e-4e8e-9d55-5e0f2a9b7c11";
    RunUpload run = Formats.byName("hyperfine").convert(Golden.bytes("hyperfine/basic.json"), "basic.json",
        new RunContext("demo", "1.2.3", "ci-runner-1", id));

    assertThat(run.id()).isEqualTo(id);
  }

  @Test
  void aCommandBenchmarkedTwiceIsKeptTwiceTheSecondWithASuffix() throws Exception {
    RunUpload run = Golden.convert("hyperfine", "hyperfine/duplicate.json");
    JsonNode file = Golden.tree("hyperfine/duplicate.json");

    assertThat(run.results()).filteredOn(r -> r.metric().equals("wall-time")).extracting(ResultUpload::benchmark)
        .containsExactly("true", "sleep 0.001", "true #2");
    assertThat(result(run, "true #2", "wall-time").samples()).isEqualTo(Golden.doubles(file.at("/results/2/times")));
  }

  @Test
  void aCommandOfHundredsOfCharactersIsKeptWhole() throws Exception {
    RunUpload run = Golden.convert("hyperfine", "hyperfine/long-command.json");

    String command = Golden.tree("hyperfine/long-command.json").at("/results/0/command").asText();
    assertThat(command).hasSizeGreaterThan(400);
    assertThat(result(run, command, "wall-time").samples()).hasSize(3);
  }
}
