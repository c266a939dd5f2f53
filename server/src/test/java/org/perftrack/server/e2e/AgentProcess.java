package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The agent as a user runs it: {@code java -jar agent/target/perftrack-agent.jar}, built by the reactor
 * before the server module (the server has a test dependency on it for that reason).
 */
final class AgentProcess {

  static final Path JAR = Path.of("../agent/target/perftrack-agent.jar").toAbsolutePath().normalize();

  /** What a finished agent process printed; stdout and stderr go to files so nothing blocks. */
  record Result(int exitCode, String out) {}

  private AgentProcess() {}

  static ProcessBuilder builder(Path home, String... args) {
    assertThat(JAR).as("the agent jar; build it with 'mvn -B package' (the reactor does so before the server's tests)")
        .exists();
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // Java takes the home directory from the password database, not $HOME: the spool and work
        // directories must not land in the real ~/.perftrack
        "-Duser.home=" + home, "-jar", JAR.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(home.resolve("agent-" + System.nanoTime() + ".log").toFile());
    builder.environment().put("HOME", home.toString());
    builder.environment().remove("PERFTRACK_TOKEN");
    builder.environment().remove("PERFTRACK_SERVER");
    return builder;
  }

  static Result run(Path home, String... args) throws IOException, InterruptedException {
    ProcessBuilder builder = builder(home, args);
    Process process = builder.start();
    if (!process.waitFor(180, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      throw new AssertionError("the agent did not finish in 180 s: " + Files.readString(output(builder)));
    }
    return new Result(process.exitValue(), Files.readString(output(builder)));
  }

  static Path output(ProcessBuilder builder) {
    return builder.redirectOutput().file().toPath();
  }

  /** The runs waiting in a spool: the entries in its servers' folders. */
  static List<Path> waiting(Path spool) throws IOException {
    return entries(spool, 2, false);
  }

  /** The runs a spool has sent: the entries in its servers' {@code sent} folders. */
  static List<Path> sent(Path spool) throws IOException {
    return entries(spool, 3, true);
  }

  private static List<Path> entries(Path spool, int depth, boolean sent) throws IOException {
    if (!Files.isDirectory(spool)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(spool, depth)) {
      return files.filter(f -> spool.relativize(f).getNameCount() == depth && Files.isRegularFile(f)
              && f.getParent().getFileName().toString().equals("sent") == sent
              && f.toString().matches(".*\\.(json|upload)$") && !f.toString().endsWith(".problem.json"))
          .sorted().toList();
    }
  }

  /** The preload library that slows write/read/sigprocmask/fork, compiled from the agent's test tree. */
  static Path compileSlowLayer(Path dir) throws IOException, InterruptedException {
    Path library = dir.resolve("slowlayer.so");
    Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O2", "-o", library.toString(),
        Path.of("../agent/src/test/native/slowlayer.c").toAbsolutePath().normalize().toString(), "-ldl", "-lpthread")
        .inheritIO().start();
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(gcc.exitValue()).isZero();
    return library;
  }
}
