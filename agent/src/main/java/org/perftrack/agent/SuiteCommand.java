package org.perftrack.agent;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.perftrack.agent.suite.Benchmark;
import org.perftrack.agent.suite.Suite;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code suite}: what each benchmark measures and in which unit. */
@Command(name = "suite", mixinStandardHelpOptions = true, description = "List the benchmarks of the suite.")
final class SuiteCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    out.printf("suite %s: %d benchmarks%n", Suite.NAME, Suite.all().size());
    for (Benchmark b : Suite.all()) {
      out.printf("  %-15s %-5s %-16s %s%n", b.name(), b.unit(), b.isBandwidth() ? "higher is better" : "lower is better",
          b.description());
    }
    out.printf("Primary metric: %s (%s for pipe-bw/*); also uploaded: %s, %s, %s.%n", Benchmark.TIME_PER_OP,
        Benchmark.BANDWIDTH, Benchmark.CTX_SWITCHES, Benchmark.USER_CPU, Benchmark.SYS_CPU);
    out.flush();
    return ExitCode.OK;
  }
}
