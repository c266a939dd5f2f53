package org.perftrack.server.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.perftrack.server.runs.RunQueries.StoredRunView;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.RunUpload;

class EnvironmentTest {

  @Test
  void attributesThatRepeatTheMachineFactsAreShownOnce() {
    RunUpload.MachineInfo machine = new RunUpload.MachineInfo("xp", "Windows XP", "AMD64", 1, 1024L,
        Map.of("os", "Windows XP", "antivirus", "NOD32"));
    StoredRunView base = run("a", machine, Map.of("cpu", "AMD64", "cores", "1", "memory_mb", "1024", "cc", "gcc 3.4"));
    StoredRunView head = run("b", machine, Map.of("cpu", "AMD64", "cc", "gcc 4.3"));

    Environment env = Environment.of(base, head);

    assertThat(env.rows()).extracting(Environment.Row::key)
        .containsExactly("OS", "CPU", "Cores", "Memory (MB)", "machine: antivirus", "Suite", "Batch", "cc");
    assertThat(env.differences()).isEqualTo(1);
  }

  private static StoredRunView run(String id, RunUpload.MachineInfo machine, Map<String, String> attributes) {
    return new StoredRunView(id, "cygwin", "1.0", machine, "posix", null, null, null, null, attributes, List.of(),
        List.of(), null, false, null, null);
  }
}
