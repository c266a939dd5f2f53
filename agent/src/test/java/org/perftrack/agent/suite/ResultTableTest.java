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

/** The session's summary: each row's median, min and max in the one unit the row names, as people read them. */
class ResultTableTest {

  @Test
  void aBandwidthRowReadsInGigabytesASecondAndATimeRowInItsOwnUnit() {
    Measurements m = new Measurements(new PreparedTarget(new Target("local", "6.1",
        new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false), Path.of("work")), Map.of(), Map.of()),
        Instant.parse("2026-01-01T00:00:00Z"));
    Benchmark pipe = Suite.select(List.of("pipe-bw")).stream().filter(b -> b.unit().equals("MB/s")).findFirst()
        .orElseThrow();
    m.complete(pipe, samples(3170, 3180, 3190));
    m.complete(Suite.select(List.of("null-call")).get(0), samples(20.0, 20.2, 19.9));
    StringWriter out = new StringWriter();

    ResultTable.print(new PrintWriter(out), m);

    assertThat(out.toString()).containsPattern(pipe.name() + " +3\\.18 GB/s +3\\.17 +3\\.19 ")
        .containsPattern("null-call +20 ns +19\\.9 +20\\.2 ");
  }

  private static List<Sample> samples(double... values) {
    return java.util.Arrays.stream(values).mapToObj(v -> new Sample(v, 0, 0, 0)).toList();
  }
}
