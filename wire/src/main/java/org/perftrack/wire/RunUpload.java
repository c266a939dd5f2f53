package org.perftrack.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One run as sent to {@code POST /api/v1/runs}: one version of a product measured on one machine.
 * This is the wire contract of DESIGN.md; the agent writes it, the server reads it, and the
 * converters of other tools' files produce it.
 *
 * <p>Java 8 on purpose: the agent shares it and runs on Windows XP / Server 2003 machines, where no
 * later Java starts. So these are final classes with record-style accessors instead of records, and
 * only {@code com.fasterxml.jackson.annotation} annotations, which Jackson 2 (the agent) and
 * Jackson 3 (the server) both read.
 */
@JsonPropertyOrder({"id", "product", "version", "machine", "suite", "batch", "startedAt", "finishedAt",
    "attributes", "results", "failures", "branch", "startPoint", "batchSize"})
public final class RunUpload extends WireValue {

  public static final String LOWER_IS_BETTER = "lower_is_better";
  public static final String HIGHER_IS_BETTER = "higher_is_better";

  private final String id;
  private final String product;
  private final String version;
  private final MachineInfo machine;
  private final String suite;
  private final String batch;
  private final Instant startedAt;
  private final Instant finishedAt;
  private final Map<String, String> attributes;
  private final List<ResultUpload> results;
  private final List<BenchmarkFailure> failures;
  private final String branch;
  private final String startPoint;
  private final Integer batchSize;

  /** A run of the default branch. */
  public RunUpload(String id, String product, String version, MachineInfo machine, String suite, String batch,
      Instant startedAt, Instant finishedAt, Map<String, String> attributes, List<ResultUpload> results,
      List<BenchmarkFailure> failures) {
    this(id, product, version, machine, suite, batch, startedAt, finishedAt, attributes, results, failures, null,
        null, null);
  }

  /**
   * @param attributes run-level environment (uname inside the target, compiler, CYGWIN variable, mount flags…)
   * @param failures benchmarks that could not be measured in this run (compile error, crash)
   * @param branch the branch measured (a pull request's, say); null for the default branch
   * @param startPoint the default branch's version the branch started from; null: its newest on the machine
   * @param batchSize how many runs the session of {@code batch} sends for this product and machine: the server
   *     judges them together once they are all there (or no more arrive for a while); null: judged on arrival
   */
  @JsonCreator
  public RunUpload(
      @JsonProperty("id") String id,
      @JsonProperty("product") String product,
      @JsonProperty("version") String version,
      @JsonProperty("machine") MachineInfo machine,
      @JsonProperty("suite") String suite,
      @JsonProperty("batch") String batch,
      @JsonProperty("startedAt") Instant startedAt,
      @JsonProperty("finishedAt") Instant finishedAt,
      @JsonProperty("attributes") Map<String, String> attributes,
      @JsonProperty("results") List<ResultUpload> results,
      @JsonProperty("failures") List<BenchmarkFailure> failures,
      @JsonProperty("branch") String branch,
      @JsonProperty("startPoint") String startPoint,
      @JsonProperty("batchSize") Integer batchSize) {
    this.id = id;
    this.product = product;
    this.version = version;
    this.machine = machine;
    this.suite = suite;
    this.batch = batch;
    this.startedAt = startedAt;
    this.finishedAt = finishedAt;
    this.attributes = attributes;
    this.results = results;
    this.failures = failures;
    this.branch = branch;
    this.startPoint = startPoint;
    this.batchSize = batchSize;
  }

  /** This run on a branch (null: the default branch), from a start point (null: the newest default version). */
  public RunUpload onBranch(String branchName, String startPointName) {
    return new RunUpload(id, product, version, machine, suite, batch, startedAt, finishedAt, attributes, results,
        failures, branchName, startPointName, batchSize);
  }

  /** This run as one of {@code size} runs of its session (null: judged on arrival). */
  public RunUpload withBatchSize(Integer size) {
    return new RunUpload(id, product, version, machine, suite, batch, startedAt, finishedAt, attributes, results,
        failures, branch, startPoint, size);
  }

  @JsonProperty("id")
  public String id() {
    return id;
  }

  @JsonProperty("product")
  public String product() {
    return product;
  }

  @JsonProperty("version")
  public String version() {
    return version;
  }

  @JsonProperty("machine")
  public MachineInfo machine() {
    return machine;
  }

  @JsonProperty("suite")
  public String suite() {
    return suite;
  }

  @JsonProperty("batch")
  public String batch() {
    return batch;
  }

  @JsonProperty("startedAt")
  public Instant startedAt() {
    return startedAt;
  }

  @JsonProperty("finishedAt")
  public Instant finishedAt() {
    return finishedAt;
  }

  @JsonProperty("attributes")
  public Map<String, String> attributes() {
    return attributes;
  }

  @JsonProperty("results")
  public List<ResultUpload> results() {
    return results;
  }

  @JsonProperty("failures")
  public List<BenchmarkFailure> failures() {
    return failures;
  }

  /** Left out of the JSON when null, so a default-branch run serialises (and hashes) as it always did. */
  @JsonProperty("branch")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public String branch() {
    return branch;
  }

  @JsonProperty("startPoint")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public String startPoint() {
    return startPoint;
  }

  /** Left out of the JSON when null, so a run judged on arrival serialises (and hashes) as it always did. */
  @JsonProperty("batchSize")
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Integer batchSize() {
    return batchSize;
  }

  @Override
  Object[] values() {
    return new Object[] {id, product, version, machine, suite, batch, startedAt, finishedAt, attributes, results,
        failures, branch, startPoint, batchSize};
  }

  /** The machine a run was measured on; {@code attributes} hold anything else worth comparing (antivirus…). */
  @JsonPropertyOrder({"name", "os", "cpu", "cores", "memoryMb", "attributes"})
  public static final class MachineInfo extends WireValue {

    private final String name;
    private final String os;
    private final String cpu;
    private final Integer cores;
    private final Long memoryMb;
    private final Map<String, String> attributes;

    @JsonCreator
    public MachineInfo(
        @JsonProperty("name") String name,
        @JsonProperty("os") String os,
        @JsonProperty("cpu") String cpu,
        @JsonProperty("cores") Integer cores,
        @JsonProperty("memoryMb") Long memoryMb,
        @JsonProperty("attributes") Map<String, String> attributes) {
      this.name = name;
      this.os = os;
      this.cpu = cpu;
      this.cores = cores;
      this.memoryMb = memoryMb;
      this.attributes = attributes;
    }

    public static MachineInfo named(String name) {
      return new MachineInfo(name, null, null, null, null, Collections.<String, String>emptyMap());
    }

    @JsonProperty("name")
    public String name() {
      return name;
    }

    @JsonProperty("os")
    public String os() {
      return os;
    }

    @JsonProperty("cpu")
    public String cpu() {
      return cpu;
    }

    @JsonProperty("cores")
    public Integer cores() {
      return cores;
    }

    @JsonProperty("memoryMb")
    public Long memoryMb() {
      return memoryMb;
    }

    @JsonProperty("attributes")
    public Map<String, String> attributes() {
      return attributes;
    }

    @Override
    Object[] values() {
      return new Object[] {name, os, cpu, cores, memoryMb, attributes};
    }
  }

  /**
   * One metric of one benchmark: its raw samples, or (DESIGN.md) only summary statistics when the tool
   * kept no samples. {@code direction} is lower_is_better or higher_is_better. The summary fields are
   * left out of the JSON when null, so a run with samples serialises as it always did.
   */
  @JsonPropertyOrder({"benchmark", "metric", "unit", "direction", "samples", "n", "mean", "stddev", "min",
      "median", "max"})
  public static final class ResultUpload extends WireValue {

    private final String benchmark;
    private final String metric;
    private final String unit;
    private final String direction;
    private final List<Double> samples;
    private final Integer n;
    private final Double mean;
    private final Double stddev;
    private final Double min;
    private final Double median;
    private final Double max;

    /** A result with raw samples, no summary. */
    public ResultUpload(String benchmark, String metric, String unit, String direction, List<Double> samples) {
      this(benchmark, metric, unit, direction, samples, null, null, null, null, null, null);
    }

    @JsonCreator
    public ResultUpload(
        @JsonProperty("benchmark") String benchmark,
        @JsonProperty("metric") String metric,
        @JsonProperty("unit") String unit,
        @JsonProperty("direction") String direction,
        @JsonProperty("samples") List<Double> samples,
        @JsonProperty("n") Integer n,
        @JsonProperty("mean") Double mean,
        @JsonProperty("stddev") Double stddev,
        @JsonProperty("min") Double min,
        @JsonProperty("median") Double median,
        @JsonProperty("max") Double max) {
      this.benchmark = benchmark;
      this.metric = metric;
      this.unit = unit;
      this.direction = direction;
      this.samples = samples;
      this.n = n;
      this.mean = mean;
      this.stddev = stddev;
      this.min = min;
      this.median = median;
      this.max = max;
    }

    @JsonProperty("benchmark")
    public String benchmark() {
      return benchmark;
    }

    @JsonProperty("metric")
    public String metric() {
      return metric;
    }

    @JsonProperty("unit")
    public String unit() {
      return unit;
    }

    @JsonProperty("direction")
    public String direction() {
      return direction;
    }

    /** The raw samples; null for a summary-only result. */
    @JsonProperty("samples")
    public List<Double> samples() {
      return samples;
    }

    @JsonProperty("n")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Integer n() {
      return n;
    }

    @JsonProperty("mean")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Double mean() {
      return mean;
    }

    @JsonProperty("stddev")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Double stddev() {
      return stddev;
    }

    @JsonProperty("min")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Double min() {
      return min;
    }

    @JsonProperty("median")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Double median() {
      return median;
    }

    @JsonProperty("max")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Double max() {
      return max;
    }

    @Override
    Object[] values() {
      return new Object[] {benchmark, metric, unit, direction, samples, n, mean, stddev, min, median, max};
    }
  }

  /** A benchmark of the suite that produced no samples in this run, and why. */
  @JsonPropertyOrder({"benchmark", "message"})
  public static final class BenchmarkFailure extends WireValue {

    private final String benchmark;
    private final String message;

    @JsonCreator
    public BenchmarkFailure(@JsonProperty("benchmark") String benchmark, @JsonProperty("message") String message) {
      this.benchmark = benchmark;
      this.message = message;
    }

    @JsonProperty("benchmark")
    public String benchmark() {
      return benchmark;
    }

    @JsonProperty("message")
    public String message() {
      return message;
    }

    @Override
    Object[] values() {
      return new Object[] {benchmark, message};
    }
  }
}
