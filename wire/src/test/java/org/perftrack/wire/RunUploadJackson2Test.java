package org.perftrack.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The agent's side of the wire: Jackson 2 reads and writes the model through its annotations alone. */
class RunUploadJackson2Test {

  private static final ObjectMapper JACKSON2 = new ObjectMapper().registerModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  static RunUpload run(RunUpload.ResultUpload result) {
    return new RunUpload("5d1f2c3a-9b8e-4f70-a1d2-3c4b5a6d7e8f", "cygwin", "1.5.24-2",
        new RunUpload.MachineInfo("xp-lab-01", "Windows XP", "P4", 1, 512L, Map.of("power-plan", "Always On")),
        "posix", null, Instant.parse("2007-03-07T19:00:00Z"), Instant.parse("2007-03-07T19:20:00Z"),
        Map.of("compiler", "gcc 3.4.4"), List.of(result), List.of(new RunUpload.BenchmarkFailure("fork", "crashed")));
  }

  @Test
  void writesTheDesignDocsFieldNamesAndReadsThemBack() throws Exception {
    RunUpload run = run(new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
        List.of(48.2, 47.9)));

    String json = JACKSON2.writeValueAsString(run);

    assertThat(json).startsWith("{\"id\":\"5d1f2c3a-9b8e-4f70-a1d2-3c4b5a6d7e8f\",\"product\":\"cygwin\"")
        .contains("\"startedAt\":\"2007-03-07T19:00:00Z\"", "\"memoryMb\":512",
            "\"results\":[{\"benchmark\":\"write-64b\",\"metric\":\"time-per-op\",\"unit\":\"us\","
                + "\"direction\":\"lower_is_better\",\"samples\":[48.2,47.9]}]",
            "\"failures\":[{\"benchmark\":\"fork\",\"message\":\"crashed\"}]")
        .doesNotContain("\"n\"", "\"mean\"");
    assertThat(JACKSON2.readValue(json, RunUpload.class)).isEqualTo(run);
  }

  @Test
  void carriesASummaryInsteadOfSamples() throws Exception {
    RunUpload run = run(new RunUpload.ResultUpload("startup", "wall-time", "ms", RunUpload.LOWER_IS_BETTER, null,
        30, 12.5, 0.4, 11.9, 12.4, 13.8));

    String json = JACKSON2.writeValueAsString(run);
    RunUpload back = JACKSON2.readValue(json, RunUpload.class);

    assertThat(json).contains("\"samples\":null,\"n\":30,\"mean\":12.5,\"stddev\":0.4,\"min\":11.9,"
        + "\"median\":12.4,\"max\":13.8");
    assertThat(back).isEqualTo(run);
    assertThat(back.results().get(0).samples()).isNull();
    assertThat(back.results().get(0).n()).isEqualTo(30);
  }

  @Test
  void equalShapesAreEqualWithOneHashAndReadAsTheirFields() {
    RunUpload.ResultUpload a = new RunUpload.ResultUpload("fork", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
        List.of(75.0, 76.0));
    RunUpload.ResultUpload same = new RunUpload.ResultUpload("fork", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
        List.of(75.0, 76.0));
    RunUpload.ResultUpload other = new RunUpload.ResultUpload("fork", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
        List.of(75.0, 77.0));

    assertThat(a).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(other).isNotEqualTo(null);
    assertThat(run(a)).isEqualTo(run(same)).isNotEqualTo(run(other)).isNotEqualTo(run(a).withBatchSize(2));
    assertThat(new RunUpload.BenchmarkFailure("fork", "crashed")).isNotEqualTo(
        new RunUpload.BenchmarkFailure("fork", "timed out"));
    assertThat(a).hasToString("ResultUpload[benchmark=fork, metric=time-per-op, unit=us, direction=lower_is_better, "
        + "samples=[75.0, 76.0], n=null, mean=null, stddev=null, min=null, median=null, max=null]");
    assertThat(new RunUpload.BenchmarkFailure("fork", "crashed")).hasToString(
        "BenchmarkFailure[benchmark=fork, message=crashed]");
  }
}
