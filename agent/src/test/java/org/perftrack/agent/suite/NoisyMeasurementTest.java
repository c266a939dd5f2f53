package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;

/** A measurement whose samples vary too much says so, and what to do about it; a steady one says nothing. */
class NoisyMeasurementTest {

  @Test
  void samplesThatVaryMoreThanTenPercentAreTooNoisyToTrust() {
    Measurements m = new Measurements(new PreparedTarget(new Target("local", "6.1",
        new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false), Path.of("work")), Map.of(), Map.of()),
        Instant.parse("2026-01-01T00:00:00Z"));
    m.complete(Suite.select(List.of("fork")).get(0), samples(100, 140, 95, 160, 101));
    m.complete(Suite.select(List.of("null-call")).get(0), samples(20.0, 20.2, 19.9, 20.1, 20.0));
    StringWriter out = new StringWriter();

    ResultTable.print(new PrintWriter(out), m);

    assertThat(out.toString())
        .contains("NOISY fork: its samples vary by 24.4% (cv, above 10.0%): too noisy to trust; measure again with "
            + "more repetitions (--repetitions 10) or on a quieter machine")
        .doesNotContain("NOISY null-call");
  }

  private static List<Sample> samples(double... values) {
    return java.util.Arrays.stream(values).mapToObj(v -> new Sample(v, 0, 0, 0)).toList();
  }
}
