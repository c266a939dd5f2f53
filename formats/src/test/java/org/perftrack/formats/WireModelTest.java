package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.FormatNames;
import org.perftrack.wire.RunUpload;

/** The server's side of the wire: Jackson 3 reads the Java 8 model through the shared annotations. */
class WireModelTest {

  @Test
  void theConvertersJackson2MapperReadsAndWritesTheModelIncludingSummaryOnlyResults() throws Exception {
    RunUpload run = new RunUpload("5d1f2c3a-9b8e-4f70-a1d2-3c4b5a6d7e8f", "cygwin", "1.5.24-2",
        RunUpload.MachineInfo.named("xp-lab-01"), "posix", null, Instant.parse("2007-03-07T19:00:00Z"), null,
        Map.of(), List.of(
            new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, List.of(48.2)),
            new RunUpload.ResultUpload("startup", "wall-time", "ms", RunUpload.LOWER_IS_BETTER, null,
                30, 12.5, 0.4, 11.9, 12.4, 13.8)), List.of());

    String json = JsonInput.MAPPER.writeValueAsString(run);

    assertThat(json).startsWith("{\"id\":\"5d1f2c3a-9b8e-4f70-a1d2-3c4b5a6d7e8f\",\"product\":\"cygwin\"")
        .contains("\"startedAt\":\"2007-03-07T19:00:00Z\"")
        .contains("\"direction\":\"lower_is_better\",\"samples\":[48.2]}")
        .contains("\"samples\":null,\"n\":30,\"mean\":12.5,\"stddev\":0.4,\"min\":11.9,\"median\":12.4,\"max\":13.8}");
    assertThat(JsonInput.MAPPER.readValue(json, RunUpload.class)).isEqualTo(run);
  }

  @Test
  void theRegistryKnowsExactlyTheFormatsTheAgentNames() {
    assertThat(Formats.names()).isEqualTo(FormatNames.ALL);
  }
}
