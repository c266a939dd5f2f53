package org.perftrack.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What goes wrong is said on stderr, what happens on stdout, in a real agent process stopped as a service manager
 * or Ctrl-C stops it (SIGTERM): a log that keeps stderr apart shows the errors.
 */
class ErrorStreamTest {

  @TempDir
  Path home;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void endTheAgents() {
    for (Process p : started) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  @Test
  void serveSaysOnStderrThatItCannotRegisterWhileTheServerIsAway() throws Exception {
    Path config = config("product: cygwin\nmachine: lab-01\n");

    Agent serve = start("serve", "--config", config.toString(), "--poll", "1");
    serve.awaitErr(text -> text.contains("cannot register yet"));
    serve.stop();

    assertThat(serve.err()).contains("cannot register yet: ").contains("; trying again in 1 s")
        .as("a normal stop is not an error").doesNotContain("stopped");
    assertThat(serve.out()).doesNotContain("cannot register").isEqualTo("stopped" + System.lineSeparator());
  }

  @Test
  void runSaysOnStderrThatItWasInterrupted() throws Exception {
    Path config = config("product: cygwin\nmachine: ci-01\nbenchmarks: [null-call]\nrepetitions: 1000\n"
        + "workDir: " + home.resolve("work") + "\n");

    Agent run = start("run", "--config", config.toString(), "--spool", home.resolve("spool").toString());
    run.awaitOut(text -> text.contains("null-call") && text.contains(" left"));
    run.stop();

    assertThat(run.err())
        .contains("interrupted: the finished benchmarks are in the spool; 'perftrack-agent upload' sends them");
    assertThat(run.out()).doesNotContain("interrupted:");
  }

  private Path config(String lines) throws IOException {
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    return Files.writeString(home.resolve("agent.yml"), lines + "server: http://127.0.0.1:" + deadPort + "\n"
        + "token: t\ntargets:\n  - version: \"1.0\"\n    shell: [/bin/bash, -c]\n");
  }

  private Agent start(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(args));
    Path out = home.resolve("agent-" + started.size() + ".out");
    Path err = home.resolve("agent-" + started.size() + ".err");
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("HOME", home.toString());
    builder.environment().remove("PERFTRACK_TOKEN");
    builder.environment().remove("PERFTRACK_SERVER");
    Process process = builder.start();
    started.add(process);
    return new Agent(process, out, err);
  }

  private record Agent(Process process, Path outFile, Path errFile) {

    String out() throws IOException {
      return Files.readString(outFile);
    }

    String err() throws IOException {
      return Files.readString(errFile);
    }

    void awaitOut(Predicate<String> seen) throws IOException, InterruptedException {
      await(outFile, seen);
    }

    void awaitErr(Predicate<String> seen) throws IOException, InterruptedException {
      await(errFile, seen);
    }

    private void await(Path file, Predicate<String> seen) throws IOException, InterruptedException {
      for (int i = 0; i < 1200 && !seen.test(Files.readString(file)); i++) {
        assertThat(process.isAlive()).as("the agent is still running; it said: " + out() + err()).isTrue();
        Thread.sleep(100);
      }
      assertThat(seen.test(Files.readString(file))).as("the agent said: " + out() + err()).isTrue();
    }

    /** SIGTERM, as Ctrl-C or a service stop; waits until the agent has ended. */
    void stop() throws InterruptedException, IOException {
      process.destroy();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the agent ended; it said: " + out() + err()).isTrue();
    }
  }
}
