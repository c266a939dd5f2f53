package org.perftrack.agent.suite;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.wire.Quantities;

/**
 * Measures every benchmark in every target, interleaved: for each benchmark, each target calibrates
 * (which warms it up), then sample 1 of every target runs, then sample 2 of every target, … (A B A B),
 * so a machine that drifts during the session affects all versions alike. A benchmark that fails in
 * one target is recorded and the rest go on.
 */
public final class SuiteSession {

  /**
   * @param scale multiplies the 0.5 s a sample lasts; the per-operation values do not depend on it
   * @param stepTimeout how long one program invocation may take before it counts as hung
   * @param noisyCv the coefficient of variation (0.1 = 10%) above which a benchmark's samples are too noisy to trust
   */
  public static final class Settings {
    private final int repetitions;
    private final double scale;
    private final Duration stepTimeout;
    private final double noisyCv;

    public Settings(int repetitions, double scale, Duration stepTimeout) {
      this(repetitions, scale, stepTimeout, ResultTable.NOISY_CV);
    }

    public Settings(int repetitions, double scale, Duration stepTimeout, double noisyCv) {
      this.repetitions = repetitions;
      this.scale = scale;
      this.stepTimeout = stepTimeout;
      this.noisyCv = noisyCv;
    }

    public double noisyCv() {
      return noisyCv;
    }

    public int repetitions() {
      return repetitions;
    }

    public double scale() {
      return scale;
    }

    public Duration stepTimeout() {
      return stepTimeout;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Settings)) {
        return false;
      }
      Settings o = (Settings) other;
      return repetitions == o.repetitions && Double.compare(scale, o.scale) == 0
          && Objects.equals(stepTimeout, o.stepTimeout) && Double.compare(noisyCv, o.noisyCv) == 0;
    }

    @Override
    public int hashCode() {
      return Objects.hash(repetitions, scale, stepTimeout, noisyCv);
    }

    @Override
    public String toString() {
      return "Settings[repetitions=" + repetitions + ", scale=" + scale + ", stepTimeout=" + stepTimeout
          + ", noisyCv=" + noisyCv + "]";
    }
  }

  private final ShellRunner runner;
  private final PrintWriter console;

  public SuiteSession(ShellRunner runner, PrintWriter console) {
    this.runner = runner;
    this.console = console;
  }

  public List<Measurements> run(List<PreparedTarget> targets, List<Benchmark> benchmarks, Settings settings)
      throws IOException, InterruptedException {
    return run(targets, benchmarks, settings, null);
  }

  /**
   * As {@link #run(List, List, Settings)}, each benchmark measured only in the targets of the versions {@code plan}
   * names for it (a lab job's plan: benchmark name → versions); null: every benchmark in every target.
   */
  public List<Measurements> run(List<PreparedTarget> targets, List<Benchmark> benchmarks, Settings settings,
      Map<String, Set<String>> plan) throws IOException, InterruptedException {
    Instant start = Instant.now();
    Map<PreparedTarget, Measurements> all = new LinkedHashMap<>();
    targets.forEach(t -> all.put(t, new Measurements(t, start)));
    int steps = 0;
    for (Benchmark b : benchmarks) {
      steps += planned(plan, b, targets).size() * (settings.repetitions() + 1);
    }
    Progress progress = new Progress(console, steps);
    String stopped = null;
    for (int k = 0; k < benchmarks.size() && !runner.cancelled(); k++) {
      try {
        Map<PreparedTarget, Measurements> in = new LinkedHashMap<>();
        planned(plan, benchmarks.get(k), targets).forEach(t -> in.put(t, all.get(t)));
        measure(benchmarks.get(k), k + 1, benchmarks.size(), in, settings, progress);
      } catch (IOException | RuntimeException e) {
        if (all.values().stream().allMatch(m -> m.samples().isEmpty())) {
          throw e;
        }
        // what finished is worth keeping: the caller spools it like an interrupted session
        stopped = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        console.printf("the session stopped at %s: %s%n", benchmarks.get(k).name(), stopped);
        break;
      }
    }
    Instant end = Instant.now();
    for (Measurements m : all.values()) {
      String why = runner.cancelled() ? "not measured: interrupted"
          : stopped != null ? "not measured: the session stopped: " + stopped : null;
      if (why != null) {
        benchmarks.stream().filter(b -> !m.samples().containsKey(b) && planned(plan, b, targets).contains(m.target()))
            .forEach(b -> m.fail(b, why));
      }
      m.finish(end, runner.cancelled(), stopped);
    }
    return new ArrayList<>(all.values());
  }

  private static List<PreparedTarget> planned(Map<String, Set<String>> plan, Benchmark b, List<PreparedTarget> targets) {
    if (plan == null) {
      return targets;
    }
    Set<String> versions = plan.getOrDefault(b.name(), Collections.<String>emptySet());
    return targets.stream().filter(t -> versions.contains(t.target().version())).collect(Collectors.toList());
  }

  private void measure(Benchmark benchmark, int k, int n, Map<PreparedTarget, Measurements> all,
      Settings settings, Progress progress) throws IOException, InterruptedException {
    Map<PreparedTarget, Long> iterations = new LinkedHashMap<>();
    for (Measurements m : all.values()) {
      PreparedTarget t = m.target();
      String buildFailure = t.buildFailures().get(benchmark.program());
      if (buildFailure != null) {
        fail(m, benchmark, buildFailure);
        continue;
      }
      ShellRunner.Result r = invoke(t, benchmark, "calibrate " + scale(settings.scale()), settings);
      OptionalLong iters = Sample.parseIterations(r.stdout());
      progress.step(k, n, benchmark, t.target().name(), "calibrate");
      if (r.ok() && iters.isPresent()) {
        iterations.put(t, iters.getAsLong());
      } else if (!runner.cancelled()) {
        fail(m, benchmark, "calibration failed: " + r.problem());
      }
    }
    Map<PreparedTarget, List<Sample>> samples = new LinkedHashMap<>();
    for (int rep = 1; rep <= settings.repetitions(); rep++) {
      for (PreparedTarget t : new ArrayList<>(iterations.keySet())) {
        if (runner.cancelled()) {
          return;
        }
        ShellRunner.Result r = invoke(t, benchmark, "sample " + iterations.get(t), settings);
        Optional<Sample> sample = Sample.parse(r.stdout());
        if (r.ok() && sample.isPresent()) {
          samples.computeIfAbsent(t, x -> new ArrayList<>()).add(sample.get());
          progress.step(k, n, benchmark, t.target().name(), "sample " + rep + "/" + settings.repetitions() + " "
              + Quantities.ascii(Quantities.quantity(sample.get().value(), benchmark.unit())));
        } else if (!runner.cancelled()) {
          iterations.remove(t);
          fail(all.get(t), benchmark, "sample " + rep + " failed: " + r.problem());
        }
      }
    }
    iterations.keySet().forEach(t -> all.get(t).complete(benchmark, samples.get(t)));
  }

  private ShellRunner.Result invoke(PreparedTarget t, Benchmark benchmark, String modeAndCount, Settings settings)
      throws IOException, InterruptedException {
    String args = benchmark.args().stream().map(a -> " " + a).collect(Collectors.joining());
    return runner.run(t.target().command("./" + benchmark.program() + " " + modeAndCount + args),
        t.target().shell().env(), settings.stepTimeout());
  }

  private void fail(Measurements m, Benchmark benchmark, String message) {
    m.fail(benchmark, message);
    console.printf("%s in %s: %s%n", benchmark.name(), m.target().target().name(), message);
    console.flush();
  }

  private static String scale(double scale) {
    return String.format(Locale.ROOT, "%.4f", scale);
  }
}
