package org.perftrack.agent;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.suite.Benchmark;

/** Everything a run needs, resolved from the config and the command line ({@code run}, each lab job of {@code serve}). */
final class RunPlan {
  private final String server;
  private final String token;
  private final String product;
  private final String machine;
  private final int repetitions;
  private final double scale;
  private final List<Benchmark> benchmarks;
  private final List<TargetConfig> targets;
  private final Path spool;
  private final Path workDir;
  private final boolean dryRun;

  RunPlan(String server, String token, String product, String machine, int repetitions, double scale,
      List<Benchmark> benchmarks, List<TargetConfig> targets, Path spool, Path workDir, boolean dryRun) {
    this.server = server;
    this.token = token;
    this.product = product;
    this.machine = machine;
    this.repetitions = repetitions;
    this.scale = scale;
    this.benchmarks = benchmarks;
    this.targets = targets;
    this.spool = spool;
    this.workDir = workDir;
    this.dryRun = dryRun;
  }

  public String server() {
    return server;
  }

  public String token() {
    return token;
  }

  public String product() {
    return product;
  }

  public String machine() {
    return machine;
  }

  public int repetitions() {
    return repetitions;
  }

  public double scale() {
    return scale;
  }

  public List<Benchmark> benchmarks() {
    return benchmarks;
  }

  public List<TargetConfig> targets() {
    return targets;
  }

  public Path spool() {
    return spool;
  }

  public Path workDir() {
    return workDir;
  }

  public boolean dryRun() {
    return dryRun;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof RunPlan)) {
      return false;
    }
    RunPlan o = (RunPlan) other;
    return Objects.equals(server, o.server) && Objects.equals(token, o.token)
        && Objects.equals(product, o.product) && Objects.equals(machine, o.machine)
        && repetitions == o.repetitions && Double.compare(scale, o.scale) == 0
        && Objects.equals(benchmarks, o.benchmarks) && Objects.equals(targets, o.targets)
        && Objects.equals(spool, o.spool) && Objects.equals(workDir, o.workDir) && dryRun == o.dryRun;
  }

  @Override
  public int hashCode() {
    return Objects.hash(server, token, product, machine, repetitions, scale, benchmarks, targets, spool, workDir
        , dryRun);
  }

  @Override
  public String toString() {
    return "RunPlan[server=" + server + ", token=" + token + ", product=" + product + ", machine=" + machine
        + ", repetitions=" + repetitions + ", scale=" + scale + ", benchmarks=" + benchmarks + ", targets="
        + targets + ", spool=" + spool + ", workDir=" + workDir + ", dryRun=" + dryRun + "]";
  }
}
