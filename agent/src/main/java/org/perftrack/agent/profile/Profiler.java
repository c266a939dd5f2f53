package org.perftrack.agent.profile;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.suite.Benchmark;
import org.perftrack.agent.suite.PreparedTarget;
import org.perftrack.agent.suite.Sample;
import org.perftrack.agent.suite.TargetSetup;

/**
 * Profiles benchmarks in prepared targets, the targets interleaved (A B A B) as in a timing session. Per
 * benchmark and target: a calibration, then {@code repetitions} untraced passes under the rusage wrapper,
 * one {@code strace} pass and one {@code perf} pass, each at two iteration counts (n and 2n): the
 * difference divided by the difference in operations is the cost of one operation, set-up excluded.
 */
public final class Profiler {

  /** strace makes every call some tens of µs slower: traced runs are this much shorter than untraced. */
  private static final long TRACED_FRACTION = 100;
  private static final long MAX_TRACED_ITERATIONS = 20_000;
  private static final int TOP_FUNCTIONS = 50;

  private final ShellRunner runner;
  private final PrintWriter console;
  private final Tracers.Commands commands;

  public Profiler(ShellRunner runner, PrintWriter console) {
    this(runner, console, Tracers.Commands.standard());
  }

  /** With other tracer commands: a test names one that is not installed. */
  public Profiler(ShellRunner runner, PrintWriter console, String strace, String perf) {
    this(runner, console, new Tracers.Commands(strace, perf));
  }

  private Profiler(ShellRunner runner, PrintWriter console, Tracers.Commands commands) {
    this.runner = runner;
    this.console = console;
    this.commands = commands;
  }

  /** One profile per target and benchmark that could be profiled; a failure is reported on the console. */
  public List<Profile> profile(List<PreparedTarget> targets, List<Benchmark> benchmarks, int repetitions,
      double scale, Duration stepTimeout) throws IOException, InterruptedException {
    Map<PreparedTarget, Tracers> tracers = new LinkedHashMap<>();
    for (PreparedTarget t : targets) {
      tracers.put(t, Tracers.probe(runner, t, commands));
    }
    List<Profile> profiles = new ArrayList<>();
    for (Benchmark b : benchmarks) {
      List<Pass> passes = new ArrayList<>();
      for (PreparedTarget t : targets) {
        Pass pass = new Pass(t, b, tracers.get(t), stepTimeout);
        if (pass.calibrate(scale)) {
          passes.add(pass);
        }
      }
      for (int rep = 0; rep < Math.max(1, repetitions) && !runner.cancelled(); rep++) {
        for (Pass p : passes) {
          p.rusage();
        }
      }
      for (Pass p : passes) {
        p.strace();
      }
      for (Pass p : passes) {
        p.perf();
      }
      for (Pass p : passes) {
        profiles.add(p.profile());
        console.printf("profiled %s in %s%n", b.name(), p.t.target().name());
      }
      console.flush();
    }
    return profiles;
  }

  /** The passes of one benchmark in one target, and what they found. */
  private final class Pass {
    final PreparedTarget t;
    final Benchmark b;
    final Tracers tracers;
    final Duration timeout;
    final List<String> missing;
    long iterations;
    final Map<String, List<Double>> counterSlopes = new LinkedHashMap<>();
    final List<Map<String, Object>> syscalls = new ArrayList<>();
    final List<Map<String, Object>> functions = new ArrayList<>();
    long operations;
    String rawSyscalls;
    String rawFunctions;

    Pass(PreparedTarget t, Benchmark b, Tracers tracers, Duration timeout) {
      this.t = t;
      this.b = b;
      this.tracers = tracers;
      this.timeout = timeout;
      this.missing = new ArrayList<>(tracers.missing);
    }

    boolean calibrate(double scale) throws IOException, InterruptedException {
      if (t.buildFailures().containsKey(b.program())) {
        console.printf("%s in %s: not profiled: %s%n", b.name(), t.target().name(), t.buildFailures().get(b.program()));
        return false;
      }
      ShellRunner.Result r = run("./" + b.program() + " calibrate " + String.format(Locale.ROOT, "%.4f", scale) + args());
      OptionalLong iters = Sample.parseIterations(r.stdout());
      if (!r.ok() || !iters.isPresent()) {
        console.printf("%s in %s: not profiled: calibration failed: %s%n", b.name(), t.target().name(), r.problem());
        return false;
      }
      iterations = iters.getAsLong();
      return true;
    }

    void rusage() throws IOException, InterruptedException {
      String notBuilt = t.buildFailures().get(TargetSetup.RUSAGE);
      if (notBuilt != null) {
        String why = "rusage: the wrapper was not built: " + notBuilt;
        if (!missing.contains(why)) {
          missing.add(why);
        }
        return;
      }
      Measured low = measure("./" + TargetSetup.RUSAGE + " ./" + b.program() + " profile " + iterations + args());
      Measured high = measure("./" + TargetSetup.RUSAGE + " ./" + b.program() + " profile " + 2 * iterations + args());
      Map<String, Double> a = Rusage.parse(low.output);
      Map<String, Double> z = Rusage.parse(high.output);
      double ops = high.ops - low.ops;
      if (a.isEmpty() || z.isEmpty() || !(ops > 0)) {
        return;
      }
      for (Map.Entry<String, Double> e : z.entrySet()) {
        counterSlopes.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add((e.getValue() - a.get(e.getKey())) / ops);
      }
    }

    void strace() throws IOException, InterruptedException {
      if (!tracers.strace) {
        return;
      }
      long n = Math.min(MAX_TRACED_ITERATIONS, Math.max(1, iterations / TRACED_FRACTION));
      String options = tracers.cygwin ? " -o " : " -f -c -o ";
      Measured low = measure(commands.strace + options + "strace-low.txt ./" + b.program() + " profile " + n + args());
      String lowTable = read("strace-low.txt");
      Measured high = measure(commands.strace + options + "strace-high.txt ./" + b.program() + " profile " + 2 * n
          + args());
      String highTable = read("strace-high.txt");
      double ops = high.ops - low.ops;
      if (!(ops > 0)) {
        missing.add("strace: the traced runs failed: " + firstLine(high.problem));
        return;
      }
      Map<String, Syscalls.Count> a = tracers.cygwin ? Syscalls.cygwin(lowTable) : Syscalls.linux(lowTable);
      Map<String, Syscalls.Count> z = tracers.cygwin ? Syscalls.cygwin(highTable) : Syscalls.linux(highTable);
      double seconds = 0;
      Map<String, Double> time = new LinkedHashMap<>();
      for (Map.Entry<String, Syscalls.Count> e : z.entrySet()) {
        Syscalls.Count before = a.getOrDefault(e.getKey(), new Syscalls.Count(0, 0, 0));
        double dt = Math.max(0, e.getValue().seconds - before.seconds);
        time.put(e.getKey(), dt);
        seconds += dt;
      }
      for (Map.Entry<String, Syscalls.Count> e : z.entrySet()) {
        Syscalls.Count before = a.getOrDefault(e.getKey(), new Syscalls.Count(0, 0, 0));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", e.getKey());
        row.put("callsPerOp", round((e.getValue().calls - before.calls) / ops));
        row.put("errorsPerOp", round((e.getValue().errors - before.errors) / ops));
        row.put("timeShare", seconds > 0 ? round(time.get(e.getKey()) / seconds) : 0.0);
        syscalls.add(row);
      }
      syscalls.sort((x, y) -> Double.compare((Double) y.get("callsPerOp"), (Double) x.get("callsPerOp")));
      operations = (long) ops;
      rawSyscalls = tracers.cygwin ? cygwinSummary(z) : highTable;
    }

    void perf() throws IOException, InterruptedException {
      if (!tracers.perf) {
        return;
      }
      String report = " && " + commands.perf
          + " report -i %s --stdio --no-children --sort dso,sym -g none -n 2>/dev/null";
      Measured low = measure(commands.perf + " record -q -e cpu-clock -g -o perf-low.data -- ./" + b.program()
          + " profile " + iterations + args() + String.format(report, "perf-low.data"));
      Measured high = measure(commands.perf + " record -q -e cpu-clock -g -o perf-high.data -- ./" + b.program()
          + " profile " + 2 * iterations + args() + String.format(report, "perf-high.data"));
      if (!(high.ops - low.ops > 0)) {
        missing.add("perf: the profiled runs failed: " + firstLine(high.problem));
        return;
      }
      Map<String, Long> a = PerfTable.parse(low.output);
      Map<String, Long> z = PerfTable.parse(high.output);
      Map<String, Long> grown = new LinkedHashMap<>();
      long total = 0;
      for (Map.Entry<String, Long> e : z.entrySet()) {
        long d = e.getValue() - a.getOrDefault(e.getKey(), 0L);
        if (d > 0) {
          grown.put(e.getKey(), d);
          total += d;
        }
      }
      final long sum = total;
      grown.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue(), x.getValue())).limit(TOP_FUNCTIONS)
          .forEach(e -> {
            String[] key = e.getKey().split("\t", 2);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", key[1]);
            row.put("module", key[0]);
            row.put("selfShare", round((double) e.getValue() / sum));
            functions.add(row);
          });
      rawFunctions = topRows(high.output);
    }

    Profile profile() {
      List<Map<String, Object>> counters = new ArrayList<>();
      counterSlopes.forEach((name, slopes) -> {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        row.put("perOp", round(median(slopes)));
        counters.add(row);
      });
      if (tracers.cygwin) {
        // Cygwin's rusage leaves them 0: that means "not counted", and the missing list says so
        counters.removeIf(c -> String.valueOf(c.get("name")).contains("context-switches"));
      }
      return new Profile(b.name(), t.target().version(), operations, syscalls, counters, functions, missing,
          rawSyscalls, rawFunctions);
    }

    private Measured measure(String script) throws IOException, InterruptedException {
      ShellRunner.Result r = run(script);
      double ops = -1;
      for (String line : r.stdout().split("\n")) {
        if (line.startsWith("perftrack-profiled ops=")) {
          ops = Double.parseDouble(line.substring("perftrack-profiled ops=".length()).trim());
        }
      }
      return new Measured(r.ok() ? ops : -1, r.stdout(), r.problem());
    }

    private ShellRunner.Result run(String script) throws IOException, InterruptedException {
      return runner.run(t.target().command(script), t.target().shell().env(), timeout);
    }

    private String args() {
      return b.args().stream().map(a -> " " + a).collect(Collectors.joining());
    }

    private String read(String file) throws IOException {
      Path p = t.target().workDir().resolve(file);
      return Files.exists(p) ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8) : "";
    }
  }

  private static final class Measured {
    final double ops;
    final String output;
    final String problem;

    Measured(double ops, String output, String problem) {
      this.ops = ops;
      this.output = output;
      this.problem = problem == null ? "" : problem;
    }
  }

  /** Cygwin's trace is one line per message: what is kept of it is the count per function, like strace -c. */
  private static String cygwinSummary(Map<String, Syscalls.Count> counts) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%10s %10s %12s  %s%n", "calls", "errors",
        "seconds", "function"));
    counts.entrySet().stream().sorted((x, y) -> Long.compare(y.getValue().calls, x.getValue().calls))
        .forEach(e -> s.append(String.format(Locale.ROOT, "%10d %10d %12.6f  %s%n", e.getValue().calls,
            e.getValue().errors, e.getValue().seconds, e.getKey())));
    return s.toString();
  }

  /** The header and the first {@value #TOP_FUNCTIONS} rows of a perf report. */
  private static String topRows(String report) {
    List<String> kept = new ArrayList<>();
    int rows = 0;
    for (String line : report.split("\n")) {
      if (line.startsWith("perftrack-")) {
        continue;
      }
      boolean row = line.trim().matches("[0-9.]+%.*");
      if (row && ++rows > TOP_FUNCTIONS) {
        break;
      }
      if (row || line.startsWith("#")) {
        kept.add(line);
      }
    }
    return String.join("\n", kept) + "\n";
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static double round(double x) {
    return Math.round(x * 1e6) / 1e6;
  }

  private static String firstLine(String text) {
    String[] lines = text.trim().split("\n");
    return lines.length == 0 ? "" : lines[0];
  }
}
