package org.perftrack.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

  @TempDir
  Path home;

  @Test
  void helpDocumentsTheExitCodes() {
    CliRun help = CliRun.run(home, "--help");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("run", "upload", "suite", "Exit codes:")
        .contains("3   the server found regressions").contains("4   the server was unreachable");
  }

  @Test
  void runHelpDocumentsTheExitCodesToo() {
    CliRun help = CliRun.run(home, "run", "--help");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--fail-on-regression", "--spool", "--dry-run", "Exit codes:", "1 before 3 before 4");
  }

  @Test
  void noCommandIsAUsageError() {
    CliRun result = CliRun.run(home);

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains("Missing command");
  }

  @Test
  void unknownOptionIsAUsageError() {
    CliRun result = CliRun.run(home, "run", "--repetitons", "3");

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains("--repetitons");
  }

  @Test
  void runWithoutConfigNeedsAProductAndAServer() {
    CliRun noProduct = CliRun.run(home, "run", "--server", "http://x", "--token", "t");
    CliRun noServer = CliRun.run(home, "run", "--product", "cygwin");

    assertThat(noProduct.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noProduct.err()).contains("Missing --product");
    assertThat(noServer.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noServer.err()).contains("Missing --server and --token (or the config file's 'server:'/'token:', "
        + "or PERFTRACK_SERVER/PERFTRACK_TOKEN)");
    CliRun onlyServerMissing = CliRun.run(home, "run", "--product", "cygwin", "--token", "t");
    assertThat(onlyServerMissing.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(onlyServerMissing.err().lines().findFirst().orElse("")).as("names just what is missing")
        .isEqualTo("Missing --server (or the config file's 'server:', or PERFTRACK_SERVER); --dry-run needs neither");
  }

  @Test
  void serveNamesJustWhatTheConfigLacks() throws Exception {
    Path config = Files.writeString(home.resolve("agent.yml"),
        "token: t\nproduct: cygwin\ntargets:\n  - version: \"1\"\n    shell: [/bin/sh, -c]\n");

    CliRun noServer = CliRun.run(home, "serve", "--config", config.toString());

    assertThat(noServer.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noServer.err().lines().findFirst().orElse(""))
        .isEqualTo("serve needs the server (config 'server:' or --server)");
  }

  @Test
  void unknownBenchmarkOnTheCommandLineIsAUsageError() {
    CliRun result = CliRun.run(home, "run", "--product", "p", "--dry-run", "--benchmarks", "write-64b,frok");

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains("--benchmarks: unknown benchmark frok; known: null-call, write-64b,")
        .contains(", pipe-bw (every size)").doesNotContain("[frok]", "benchmark(s)");
  }

  @Test
  void aBadRepetitionsOrScaleIsAUsageErrorNamingOnlyTheOneAtFault() {
    CliRun reps = CliRun.run(home, "run", "--product", "p", "--dry-run", "--repetitions", "0");
    CliRun scale = CliRun.run(home, "run", "--product", "p", "--dry-run", "--scale", "0");

    assertThat(reps.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(reps.err()).contains("--repetitions (or 'repetitions:') must be at least 1, got 0")
        .doesNotContain("--scale (");
    assertThat(scale.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(scale.err()).contains("--scale (or 'scale:') must be above 0, got 0.0");
  }

  @Test
  void aTargetWhoseShellCannotStartIsAnErrorNamingTheTarget() throws Exception {
    Path config = Files.writeString(home.resolve("agent.yml"), "product: p\nmachine: m\nbenchmarks: [null-call]\n"
        + "workDir: " + home.resolve("work") + "\ntargets:\n  - version: 1.1.0\n    shell: [\"" + home.resolve("no-bash")
        + "\", \"-c\"]\n");

    CliRun result = CliRun.run(home, "run", "--config", config.toString(), "--dry-run");

    assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(result.err()).contains("error: target 1.1.0: Cannot run program \"" + home.resolve("no-bash") + "\"")
        .doesNotContain("IOException");
  }

  @Test
  void aRunIdThatIsNoUuidIsAUsageErrorBeforeAnythingIsSpooled() throws Exception {
    Path file = Files.writeString(home.resolve("hf.json"), "{\"results\": []}");

    CliRun result = CliRun.run(home, "upload", "--server", "http://x", "--token", "t", "--product", "p",
        "--version", "1", "--run-id", "build-42", file.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(result.err()).contains("--run-id must be a UUID like 3f1c2a9e-0b7d-4c1e-9a55-2f7f1e0c9d41, got 'build-42'");
    assertThat(home.resolve(".perftrack/spool")).doesNotExist();
  }

  @Test
  void badConfigIsAnErrorNamingTheFileAndField() throws Exception {
    Path config = Files.writeString(home.resolve("agent.yml"), "product: cygwin\ntargets: []\n");

    CliRun result = CliRun.run(home, "run", "--config", config.toString(), "--dry-run");

    assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(result.err()).contains("agent.yml").contains("'targets'");
  }

  @Test
  void suiteListsEveryBenchmarkWithItsUnit() {
    CliRun result = CliRun.run(home, "suite");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).contains("null-call", "write-64b", "read-64b", "sigprocmask", "signal-catch",
        "shell-builtins", "shell-test", "spawn", "configure", "fork", "pipe-bw/512", "pipe-bw/131072",
        "pipe-latency", "lstat-dir", "readdir", "file-create", "tcp-latency", "MB/s");
  }

  @Test
  void eachBenchmarkCitesTheReportOfWhatItMeasures() {
    String out = CliRun.run(home, "suite").out();

    assertThat(line(out, "read-64b")).contains("64-byte read() calls from a file")
        .contains("(2006 report: read() and write() slowed by sig_dispatch_pending in Cygwin 1.5.24)")
        .doesNotContain("write() 18 s");
    assertThat(line(out, "write-64b")).contains("(2006 report: 64-byte write() 18 s -> 48 s in Cygwin 1.5.24)");
  }

  private static String line(String out, String benchmark) {
    return out.lines().filter(l -> l.trim().startsWith(benchmark + " ")).findFirst().orElseThrow();
  }

  @Test
  void uploadNamesTheFileThatIsNotARunAndRefusesAnUnknownFormat() throws Exception {
    Path file = Files.writeString(home.resolve("hf.json"), "{}");

    CliRun result = CliRun.run(home, "upload", "--server", "http://x", "--token", "t", "--format", "perftrack",
        "--product", "p", file.toString());
    CliRun unknown = CliRun.run(home, "upload", "--server", "http://x", "--token", "t", "--format", "nosuch",
        file.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(result.err()).contains("hf.json");
    assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.err()).contains("unknown format 'nosuch'");
  }

  @Test
  void tokenComesFromTheEnvironmentWhenNotGiven() {
    CliRun result = CliRun.run(home, java.util.Map.of("PERFTRACK_SERVER", "http://127.0.0.1:9",
        "PERFTRACK_TOKEN", "t"), "upload", "--retry-attempts", "1");

    assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
    assertThat(result.out()).contains("0 runs uploaded");
  }
}
