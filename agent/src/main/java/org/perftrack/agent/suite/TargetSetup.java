package org.perftrack.agent.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.perftrack.agent.shell.OutputText;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;

/** Extracts the suite into a target's work directory, describes the target, compiles the programs. */
public final class TargetSetup {

  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration PROBE_TIMEOUT = Duration.ofMinutes(2);
  /** The program that measures the clocks' resolution, built with every suite. */
  private static final String CLOCKRES = "clockres";
  /** The wrapper that reports a program's own resource usage (wait4), for profiles; built with every suite. */
  public static final String RUSAGE = "rusage";

  private final ShellRunner runner;

  public TargetSetup(ShellRunner runner) {
    this.runner = runner;
  }

  public PreparedTarget prepare(Target target, List<Benchmark> benchmarks) throws IOException, InterruptedException {
    SuiteFiles.extract(target.workDir());
    Map<String, String> environment = probe(target);
    Set<String> programs = benchmarks.stream().map(Benchmark::program)
        .collect(Collectors.toCollection(LinkedHashSet::new));
    String sources = programs.stream().map(p -> p + ".c").collect(Collectors.joining(" ")) + " " + CLOCKRES + ".c "
        + RUSAGE + ".c";
    ShellRunner.Result build = runner.run(
        target.command("bash build.sh " + sources), target.shell().env(), BUILD_TIMEOUT);
    Map<String, String> failures = new LinkedHashMap<>();
    Set<String> built = new LinkedHashSet<>(programs);
    built.add(RUSAGE);
    for (String program : built) {
      if (!build.stdout().contains("perftrack-built " + program + "\n")) {
        failures.put(program, build.stdout().contains("perftrack-failed " + program + "\n")
            ? "does not compile: " + compilerMessage(target.workDir().resolve(program + ".err"))
            : "not built: " + build.problem());
      }
    }
    for (String line : build.stdout().split("\n")) {
      if (line.startsWith("perftrack-compiler ")) {
        environment.put("compiler", line.substring("perftrack-compiler ".length()).trim());
      }
    }
    if (build.stdout().contains("perftrack-built " + CLOCKRES + "\n")) {
      ShellRunner.Result clocks = runner.run(target.command("./" + CLOCKRES), target.shell().env(), PROBE_TIMEOUT);
      environment.putAll(envLines(clocks.stdout()));
    }
    return new PreparedTarget(target, environment, failures);
  }

  private Map<String, String> probe(Target target) throws IOException, InterruptedException {
    ShellRunner.Result result = runner.run(target.command("bash probe.sh"), target.shell().env(), PROBE_TIMEOUT);
    Map<String, String> environment = envLines(result.stdout());
    // Cygwin 1.5 writes the ANSI code page, later ones UTF-8: how this target's output was read
    environment.put("output-charset", result.charset());
    return environment;
  }

  /** The {@code perftrack-env KEY=VALUE} lines of a script's output; empty values left out. */
  private static Map<String, String> envLines(String stdout) {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String line : stdout.split("\n")) {
      if (line.startsWith("perftrack-env ")) {
        String pair = line.substring("perftrack-env ".length());
        int eq = pair.indexOf('=');
        String value = pair.substring(eq + 1).trim();
        if (eq > 0 && !value.isEmpty()) {
          environment.put(pair.substring(0, eq), value);
        }
      }
    }
    return environment;
  }

  /** The first lines of what the compiler said: enough to see which header or API is missing. */
  private static String compilerMessage(Path errors) {
    try {
      // Cygwin 1.5's gcc writes paths in the ANSI code page: read leniently, never fail here
      String text = OutputText.decode(Files.readAllBytes(errors), OutputText.hostCharset()).text();
      List<String> lines = new ArrayList<>();
      for (String line : text.split("\n")) {
        if (!line.trim().isEmpty()) {
          lines.add(line);
        }
      }
      return lines.isEmpty() ? "(no compiler output)" : String.join(" | ", lines.subList(0, Math.min(3, lines.size())));
    } catch (IOException e) {
      return "(compiler output unreadable: " + e.getMessage() + ")";
    }
  }
}
