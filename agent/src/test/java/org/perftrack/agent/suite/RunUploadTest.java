package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.CliRun;
import org.perftrack.agent.ExitCode;
import org.perftrack.agent.upload.FakeServer;
import org.perftrack.agent.upload.Spool;
import org.perftrack.wire.RunUpload;

/** {@code run} measures, spools, then sends the spool: its own run and what earlier sessions left. */
class RunUploadTest {

  @TempDir
  Path home;

  @Test
  void runUploadsItsRunAndWhatAnEarlierSessionLeftInTheSpool() throws Exception {
    RunUpload leftover = new RunUpload("0b7c3a52-2f7e-4c59-9d61-1a0f5a5d8e11", "linux", "6.1", RunUpload.MachineInfo.named("m"),
        "posix", null, Instant.now(), Instant.now(), Map.of(),
        List.of(new RunUpload.ResultUpload("fork", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, List.of(100.0))),
        List.of());
    try (FakeServer server = FakeServer.start()) {
      Spool spool = new Spool(home.resolve(".perftrack/spool"), server.url());
      spool.save(leftover);

      CliRun result = CliRun.run(home, "run", "--server", server.url(), "--token", "t", "--product", "linux",
          "--machine", "ci-01", "--benchmarks", "null-call", "--repetitions", "2", "--scale", "0.01",
          "--step-timeout", "60");

      assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(ExitCode.OK);
      assertThat(result.out()).contains("2 runs uploaded, 0 rejected, 0 waiting");
      assertThat(server.stored()).hasSize(2).containsKey(leftover.id());
      RunUpload measured = server.stored().entrySet().stream().filter(e -> !e.getKey().equals(leftover.id()))
          .map(e -> Runs.parse("[" + e.getValue() + "]").get(0)).findFirst().orElseThrow();
      assertThat(measured.machine().name()).isEqualTo("ci-01");
      assertThat(measured.results()).extracting(RunUpload.ResultUpload::metric)
          .containsExactly("time-per-op", "ctx-switches-per-op", "user-cpu-per-op", "sys-cpu-per-op");
      assertThat(spool.sentFolder()).isDirectoryContaining(p -> p.toString().endsWith(measured.id() + ".json"));
    }
  }

  @Test
  void oneSessionMeasuresTheNativeBaselineAndTheLayerAsTwoProductsInOneBatch() throws Exception {
    try (FakeServer server = FakeServer.start()) {
      Path config = Files.write(home.resolve("agent.yml"), String.join("\n",
          "server: " + server.url(),
          "token: t",
          "product: cygwin",
          "machine: box-01",
          "repetitions: 2",
          "scale: 0.01",
          "benchmarks: [null-call]",
          "targets:",
          "  - name: native",
          "    product: linux",
          "    version: 6.1.0",
          "    shell: [/bin/bash, -c]",
          "  - version: 1.5.24-2",
          "    shell: [/bin/bash, -c]",
          "").getBytes(java.nio.charset.StandardCharsets.UTF_8));

      CliRun result = CliRun.run(home, "run", "--config", config.toString(), "--step-timeout", "60");

      assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(ExitCode.OK);
      List<RunUpload> runs = server.stored().values().stream().map(v -> Runs.parse("[" + v + "]").get(0))
          .collect(java.util.stream.Collectors.toList());
      assertThat(runs).extracting(r -> r.product() + "@" + r.version())
          .containsExactlyInAnyOrder("linux@6.1.0", "cygwin@1.5.24-2");
      assertThat(runs.get(0).batch()).isNotNull().isEqualTo(runs.get(1).batch());
      assertThat(runs).extracting(RunUpload::batchSize).as("the session's runs of each product").containsOnly(1);
    }
  }
}
