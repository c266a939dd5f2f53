package org.perftrack.server.ingest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.server.problems.Names;
import org.perftrack.wire.Quantities;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/** Checks a whole run before anything is stored; every problem names its field by JSON path. */
final class RunValidator {

  static final int MAX_RESULTS = 10_000;
  static final int MAX_SAMPLES = 1_000_000;
  static final int MAX_ATTRIBUTES = 200;
  static final int MAX_TEXT = 1024;
  /** The most runs one session may announce in {@code batchSize}. */
  static final int MAX_BATCH_SIZE = 1000;
  static final Set<String> DIRECTIONS = Set.of(RunUpload.LOWER_IS_BETTER, RunUpload.HIGHER_IS_BETTER);

  private RunValidator() {}

  static void validate(RunUpload run) {
    List<FieldProblem> p = new ArrayList<>();
    if (run == null) {
      throw new InvalidInput("body", "a run object is required");
    }
    uuid("id", run.id(), true, p);
    Names.checkSegment("product", run.product(), p);
    Names.checkSegment("version", run.version(), p);
    if (run.suite() != null) {
      Names.check("suite", run.suite(), p);
    }
    uuid("batch", run.batch(), false, p);
    batchSize(run, p);
    branch(run, p);
    if (run.startedAt() != null && run.finishedAt() != null && run.finishedAt().isBefore(run.startedAt())) {
      p.add(new FieldProblem("finishedAt", "must not be before startedAt"));
    }
    machine(run.machine(), p);
    attributes("attributes", run.attributes(), p);
    results(run.results(), p);
    failures(run.failures(), p);
    if (!p.isEmpty()) {
      throw new InvalidInput(p.size() > 50 ? p.subList(0, 50) : p);
    }
  }

  private static void batchSize(RunUpload run, List<FieldProblem> p) {
    Integer size = run.batchSize();
    if (size == null) {
      return;
    }
    if (size < 1 || size > MAX_BATCH_SIZE) {
      p.add(new FieldProblem("batchSize", "must be from 1 to " + Quantities.count(MAX_BATCH_SIZE)
          + " (the runs the session sends)"));
    } else if (run.batch() == null) {
      p.add(new FieldProblem("batchSize", "counts the runs of a session; give batch too"));
    }
  }

  private static void branch(RunUpload run, List<FieldProblem> p) {
    if (run.branch() != null) {
      Names.checkBranch("branch", run.branch(), p);
    }
    if (run.startPoint() != null) {
      if (run.branch() == null) {
        p.add(new FieldProblem("startPoint", "is a branch run's version of the default branch; give branch too"));
      } else {
        Names.checkSegment("startPoint", run.startPoint(), p);
      }
    }
  }

  private static void uuid(String field, String value, boolean required, List<FieldProblem> p) {
    if (value == null) {
      if (required) {
        p.add(new FieldProblem(field, "is required (a UUID made by the client)"));
      }
      return;
    }
    try {
      if (value.length() != 36) {
        throw new IllegalArgumentException();
      }
      UUID.fromString(value);
    } catch (IllegalArgumentException e) {
      p.add(new FieldProblem(field, "must be a UUID like 3f1c2a9e-0b7d-4c1e-9a55-2f7f1e0c9d41"));
    }
  }

  private static void machine(RunUpload.MachineInfo m, List<FieldProblem> p) {
    if (m == null) {
      p.add(new FieldProblem("machine", "is required (at least {\"name\": …})"));
      return;
    }
    Names.checkSegment("machine.name", m.name(), p);
    Names.checkText("machine.os", m.os(), 256, false, p);
    Names.checkText("machine.cpu", m.cpu(), 256, false, p);
    if (m.cores() != null && (m.cores() < 1 || m.cores() > 1_000_000)) {
      p.add(new FieldProblem("machine.cores", "must be between 1 and " + Quantities.count(1_000_000)));
    }
    if (m.memoryMb() != null && (m.memoryMb() < 0 || m.memoryMb() > 1L << 40)) {
      p.add(new FieldProblem("machine.memoryMb", "must be between 0 and 2^40"));
    }
    attributes("machine.attributes", m.attributes(), p);
  }

  private static void attributes(String field, Map<String, String> attrs, List<FieldProblem> p) {
    if (attrs == null) {
      return;
    }
    if (attrs.size() > MAX_ATTRIBUTES) {
      p.add(new FieldProblem(field, "must have at most " + Quantities.count(MAX_ATTRIBUTES) + " entries"));
      return;
    }
    attrs.forEach((k, v) -> {
      if (Names.check(field, k, p)) {
        Names.checkText(field + "." + k, v == null ? "" : v, MAX_TEXT, true, p);
      }
    });
  }

  private static void results(List<ResultUpload> results, List<FieldProblem> p) {
    if (results == null || results.isEmpty()) {
      p.add(new FieldProblem("results", "must have at least one result"));
      return;
    }
    if (results.size() > MAX_RESULTS) {
      p.add(new FieldProblem("results", "must have at most " + Quantities.count(MAX_RESULTS) + " results (has "
          + Quantities.count(results.size()) + ")"));
      return;
    }
    long total = 0;
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < results.size(); i++) {
      String f = "results[" + i + "]";
      ResultUpload r = results.get(i);
      if (r == null) {
        p.add(new FieldProblem(f, "must be an object"));
        continue;
      }
      boolean named = Names.checkBenchmark(f + ".benchmark", r.benchmark(), p) & Names.check(f + ".metric", r.metric(), p);
      if (named && !seen.add(r.benchmark() + '\0' + r.metric())) {
        p.add(new FieldProblem(f, "repeats benchmark '" + r.benchmark() + "' metric '" + r.metric()
            + "': send all samples of a metric in one result"));
      }
      Names.checkName(f + ".unit", r.unit(), 32, p);
      if (r.direction() == null || !DIRECTIONS.contains(r.direction())) {
        p.add(new FieldProblem(f + ".direction", "must be lower_is_better or higher_is_better"));
      }
      if (r.samples() != null && (r.n() != null || r.mean() != null)) {
        p.add(new FieldProblem(f, "has samples and a summary: send the samples only (the server computes the rest)"));
      }
      total += r.samples() == null && r.n() != null ? summary(f, r, p) : samples(f + ".samples", r.samples(), p);
    }
    if (total > MAX_SAMPLES) {
      p.add(new FieldProblem("results", "must have at most " + Quantities.count(MAX_SAMPLES) + " samples in all (has "
          + Quantities.count(total) + ")"));
    }
  }

  /**
   * A summary-only result: {@code n} and {@code mean} required, the rest optional, all finite and in order
   * (min ≤ median ≤ max, min ≤ mean ≤ max, stddev ≥ 0). Counts as one sample towards the run's limit.
   */
  private static int summary(String f, ResultUpload r, List<FieldProblem> p) {
    if (r.n() < 1) {
      p.add(new FieldProblem(f + ".n", "must be at least 1 (the number of measurements summarised)"));
    }
    if (r.mean() == null) {
      p.add(new FieldProblem(f + ".mean", "is required for a result without samples"));
    }
    String[] names = {"mean", "stddev", "min", "median", "max"};
    Double[] values = {r.mean(), r.stddev(), r.min(), r.median(), r.max()};
    for (int i = 0; i < names.length; i++) {
      if (values[i] != null && !Double.isFinite(values[i])) {
        p.add(new FieldProblem(f + "." + names[i], "must be a finite number (was " + values[i] + ")"));
        return 1;
      }
    }
    if (r.stddev() != null && r.stddev() < 0) {
      p.add(new FieldProblem(f + ".stddev", "must not be negative"));
    }
    double lo = r.min() == null ? Double.NEGATIVE_INFINITY : r.min();
    double hi = r.max() == null ? Double.POSITIVE_INFINITY : r.max();
    for (int i : new int[] {0, 3}) {
      if (values[i] != null && (values[i] < lo || values[i] > hi)) {
        p.add(new FieldProblem(f + "." + names[i], "must lie between min and max"));
      }
    }
    return 1;
  }

  private static int samples(String f, List<Double> samples, List<FieldProblem> p) {
    if (samples == null || samples.isEmpty()) {
      p.add(new FieldProblem(f, "must have at least one sample (or, without samples, a summary: n and mean)"));
      return 0;
    }
    double sum = 0;
    for (int j = 0; j < samples.size(); j++) {
      Double s = samples.get(j);
      if (s == null || !Double.isFinite(s)) {
        p.add(new FieldProblem(f + "[" + j + "]", "must be a finite number (was " + s + ")"));
        return samples.size();
      }
      sum += s; // as the statistics sum them
    }
    if (!Double.isFinite(sum)) {
      p.add(new FieldProblem(f, "their mean is not a finite number (values near ±1.8e308 overflow)"));
    }
    return samples.size();
  }

  private static void failures(List<RunUpload.BenchmarkFailure> failures, List<FieldProblem> p) {
    if (failures == null) {
      return;
    }
    if (failures.size() > MAX_RESULTS) {
      p.add(new FieldProblem("failures", "must have at most " + Quantities.count(MAX_RESULTS) + " entries"));
      return;
    }
    for (int i = 0; i < failures.size(); i++) {
      RunUpload.BenchmarkFailure fl = failures.get(i);
      if (fl == null) {
        p.add(new FieldProblem("failures[" + i + "]", "must be an object"));
        continue;
      }
      Names.checkBenchmark("failures[" + i + "].benchmark", fl.benchmark(), p);
      Names.checkText("failures[" + i + "].message", fl.message(), 4096, false, p);
    }
  }
}
