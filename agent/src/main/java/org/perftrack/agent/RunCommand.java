package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.ConfigLoader;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.suite.Benchmark;
import org.perftrack.agent.suite.ResultTable;
import org.perftrack.agent.suite.RunAssembler;
import org.perftrack.agent.suite.Suite;
import org.perftrack.agent.suite.SuiteSession;
import org.perftrack.agent.upload.Spool;
import org.perftrack.agent.upload.WireJson;
import org.perftrack.wire.RunUpload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code run}: measures the suite in every target, interleaved, spools one run per target, uploads. */
@Command(name = "run", mixinStandardHelpOptions = true,
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {ExitCode.HELP_0, ExitCode.HELP_1, ExitCode.HELP_2, ExitCode.HELP_3, ExitCode.HELP_4},
    footer = ExitCode.HELP_ORDER,
    description = {"Run the suite in every target of the config (or in the local shell) and upload one run per target.",
        "Each run is written to the spool before it is uploaded; runs left from earlier sessions are sent too."})
final class RunCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  ServerOptions server;

  @Option(names = "--product", paramLabel = "P", description = "product measured, e.g. cygwin")
  String product;

  @Option(names = "--machine", paramLabel = "M", description = "machine name (default: host name)")
  String machine;

  @Option(names = "--benchmarks", split = ",", paramLabel = "NAME", description = "benchmarks to run (default: all; see 'suite')")
  List<String> benchmarks;

  @Option(names = "--repetitions", paramLabel = "N", description = "samples per benchmark per target (default 5)")
  Integer repetitions;

  @Option(names = "--scale", paramLabel = "X", description = "sample length factor: 1.0 = 0.5 s per sample (default 1.0)")
  Double scale;

  @Option(names = "--noisy-cv", paramLabel = "PERCENT", description = "flag a benchmark whose samples vary by more "
      + "than this (coefficient of variation, in percent) as NOISY: too noisy to trust (default 10)")
  Double noisyCv;

  @Option(names = "--dry-run", description = "measure, print the runs' JSON, upload nothing")
  boolean dryRun;

  @Option(names = "--work-dir", paramLabel = "DIR", description = "where targets build the suite (default ~/.perftrack/work)")
  Path workDir;

  @Option(names = "--step-timeout", hidden = true, defaultValue = "600", description = "seconds one benchmark program may run")
  long stepTimeoutSeconds;

  private final AgentContext context;

  RunCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // with --dry-run stdout carries only the JSON, so that it can be piped
    PrintWriter console = dryRun ? spec.commandLine().getErr() : out;
    AgentConfig config = server.config == null ? null : new ConfigLoader(context.environment()).load(server.config);
    RunPlan plan = plan(config);
    ShellRunner runner = new ShellRunner();
    CountDownLatch spooled = new CountDownLatch(1);
    Thread onCtrlC = new Thread(() -> {
      runner.cancel();
      awaitQuietly(spooled);
    }, "perftrack-interrupt");
    Runtime.getRuntime().addShutdownHook(onCtrlC);
    try {
      Spool spool = server.spool(config, context, plan.server()); // no server: a dry run, which spools nothing
      SpoolEach spoolEach = new SpoolEach(spool, out, err);
      List<RunUpload> runs = new Measurer(runner, context.windowsHost(), console)
          .measure(plan, new SuiteSession.Settings(plan.repetitions(), plan.scale(), Duration.ofSeconds(stepTimeoutSeconds),
              noisyCv(config)),
              plan.dryRun() ? run -> { } : spoolEach);
      if (plan.dryRun()) {
        out.println(WireJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(runs));
        return ExitCode.OK;
      }
      boolean stopped = runs.stream().anyMatch(r -> r.attributes().containsKey(RunAssembler.STOPPED));
      if (stopped) {
        err.println("the session stopped early: the finished benchmarks are in the spool and are sent now");
        err.flush();
      }
      if (runner.cancelled()) {
        // said before the Ctrl-C hook is let go: once it returns, the JVM ends
        err.println("interrupted: the finished benchmarks are in the spool; 'perftrack-agent upload' sends them");
        err.flush();
        return ExitCode.ERROR;
      }
      spooled.countDown();
      int code = Delivery.send(Delivery.sender(spool, plan.server(), plan.token(), server.retry(), out, err)
          .own(spoolEach.saved), server.failOn(), out, Collections.<Path>emptyList());
      return spoolEach.empty || stopped || spoolEach.unsaved ? ExitCode.ERROR : code;
    } finally {
      spooled.countDown();
      removeQuietly(onCtrlC);
    }
  }

  /** --noisy-cv over the config's noisyCv over 10%, as a fraction. */
  private double noisyCv(AgentConfig config) {
    Double percent = noisyCv != null ? noisyCv : config == null ? null : config.noisyCv();
    return percent == null ? ResultTable.NOISY_CV : percent / 100;
  }

  /** Options over config over defaults; what is missing is a usage error naming the option. */
  private RunPlan plan(AgentConfig config) {
    List<TargetConfig> targets = config == null ? Arrays.asList(TargetFactory.localShell()) : configured(config);
    String productName = ServerOptions.first(product, config == null ? null : config.product());
    String serverUrl = server.server(config, context);
    String tokenValue = server.token(config, context);
    if (productName == null) {
      throw new ParameterException(spec.commandLine(), "Missing --product (or 'product:' in the config file)");
    }
    if (!dryRun && (serverUrl == null || tokenValue == null)) {
      throw new ParameterException(spec.commandLine(), ServerOptions.missing(serverUrl, tokenValue)
          + "; --dry-run needs neither");
    }
    int reps = orElse(repetitions != null ? repetitions : config == null ? null : config.repetitions(), 5);
    double factor = orElse(scale != null ? scale : config == null ? null : config.scale(), 1.0);
    if (noisyCv != null && !(noisyCv > 0)) {
      throw new ParameterException(spec.commandLine(), "--noisy-cv must be above 0 (a percentage, e.g. 10)");
    }
    if (reps < 1) {
      throw new ParameterException(spec.commandLine(), "--repetitions (or 'repetitions:') must be at least 1, got "
          + reps);
    }
    if (!(factor > 0)) {
      throw new ParameterException(spec.commandLine(), "--scale (or 'scale:') must be above 0, got " + factor);
    }
    List<Benchmark> selected;
    try {
      selected = Suite.select(benchmarks != null ? benchmarks : config == null ? null : config.benchmarks());
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--benchmarks: " + e.getMessage());
    }
    String machineName = ServerOptions.first(machine, config == null ? null : config.machine(), context.hostName());
    Path work = workDir != null ? workDir
        : config != null && config.workDir() != null ? Paths.get(config.workDir()) : context.agentHome().resolve("work");
    return new RunPlan(serverUrl, tokenValue, productName, machineName, reps, factor, selected, targets,
        server.spool(config, context), work, dryRun);
  }

  /** The config's targets, then one per folder its {@code discover} globs find. */
  private List<TargetConfig> configured(AgentConfig config) {
    List<TargetConfig> all = new java.util.ArrayList<>(config.targets());
    try {
      all.addAll(Discovery.targets(config.discover()));
    } catch (java.io.IOException e) {
      throw new ParameterException(spec.commandLine(), "discover: cannot list the folders: " + e.getMessage());
    }
    return all;
  }

  /**
   * Spools each target's run as soon as it is assembled; one that cannot be written (an antivirus holding the
   * file through the spool's retries) is reported and the others are still spooled.
   */
  private static final class SpoolEach implements Measurer.RunSink {
    private final Spool spool;
    private final PrintWriter out;
    private final PrintWriter err;
    boolean empty;
    boolean unsaved;
    final List<Path> saved = new ArrayList<>();

    SpoolEach(Spool spool, PrintWriter out, PrintWriter err) {
      this.spool = spool;
      this.out = out;
      this.err = err;
    }

    @Override
    public void accept(RunUpload run) {
      if (run.results().isEmpty()) {
        // the server takes no run without results; the failures were printed above
        err.printf("no results for %s: nothing to upload%n", run.version());
        err.flush();
        empty = true;
        return;
      }
      try {
        Path entry = spool.save(run);
        saved.add(entry);
        out.printf("spooled %s (%s)%n", entry, run.version());
      } catch (IOException e) {
        err.printf("cannot spool the run of %s: %s%n", run.version(), e);
        err.flush();
        unsaved = true;
      }
      out.flush();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void removeQuietly(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down: the hook is running and waits for us
    }
  }

  private static <T> T orElse(T value, T fallback) {
    return value != null ? value : fallback;
  }
}
