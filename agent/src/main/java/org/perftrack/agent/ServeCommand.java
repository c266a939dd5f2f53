package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.ConfigLoader;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.suite.Benchmark;
import org.perftrack.agent.suite.ResultTable;
import org.perftrack.agent.suite.Suite;
import org.perftrack.agent.suite.SuiteSession;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.Spool;
import org.perftrack.wire.RunUpload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: the agent as a lab service. It registers its machine and the versions it can run
 * (explicit and discovered targets), sends heartbeats that carry the running job's progress, pulls
 * jobs and runs each as one interleaved batch, spools and uploads the runs, and reports the job
 * finished or failed. A lost connection is waited out; a restart registers again (the server puts the
 * interrupted job back in the queue); Ctrl-C or a service stop ends the benchmark processes and
 * returns the job to the queue. Java 8 code: the agent runs on the lab's old Windows machines.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run as a lab agent until stopped: register, send heartbeats, run the jobs the server hands out.",
        "Targets are the config's 'targets' plus every folder its 'discover' globs find (looked at before each job)."})
final class ServeCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  ServerOptions server;

  @Option(names = "--heartbeat", paramLabel = "SECONDS", description = "seconds between heartbeats (default: config 'heartbeat', else 60)")
  Integer heartbeatSeconds;

  @Option(names = "--poll", paramLabel = "SECONDS", defaultValue = "30", description = "seconds between asking for work when idle (default 30)")
  long pollSeconds;

  @Option(names = "--work-dir", paramLabel = "DIR", description = "where targets build the suite (default ~/.perftrack/work)")
  Path workDir;

  @Option(names = "--step-timeout", hidden = true, defaultValue = "600")
  long stepTimeoutSeconds;

  private final AgentContext context;
  private final AtomicReference<String> progress = new AtomicReference<String>();
  private final AtomicReference<List<String>> offered = new AtomicReference<List<String>>(new ArrayList<String>());
  private final AtomicReference<ShellRunner> current = new AtomicReference<ShellRunner>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile long agentId = -1;

  ServeCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    if (server.config == null) {
      throw new ParameterException(spec.commandLine(), "serve needs --config agent.yml (targets or discover, product, server)");
    }
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    AgentConfig config = new ConfigLoader(context.environment()).load(server.config);
    final Settings s = settings(config);
    final LabClient client = new LabClient(s.server, s.token);
    Thread onStop = new Thread(new Runnable() {
      @Override
      public void run() {
        stop.countDown();
        ShellRunner r = current.get();
        if (r != null) {
          r.cancel();
        }
        await(stopped, 30);
      }
    }, "perftrack-stop");
    Runtime.getRuntime().addShutdownHook(onStop);
    ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(daemon("perftrack-heartbeat"));
    try {
      sendSpool(s, out, err);
      register(client, s, config, out, err);
      heartbeats.scheduleWithFixedDelay(new Runnable() {
        @Override
        public void run() {
          heartbeat(client);
        }
      }, s.heartbeat, s.heartbeat, TimeUnit.SECONDS);
      while (stop.getCount() > 0) {
        LabClient.Job job = null;
        try {
          offered.set(versions(resolve(config, s)));
          job = client.claim(agentId);
        } catch (LabClient.Refused e) {
          if (e.status == 404) {
            register(client, s, config, out, err);
            continue;
          }
          err.println("the server refused the claim: " + e.getMessage());
        } catch (IOException e) {
          err.println("server unreachable (" + e.getMessage() + "); trying again in " + pollSeconds + " s");
        } catch (AgentException e) {
          err.println("cannot list the targets: " + e.getMessage());
        }
        err.flush();
        if (job == null) {
          await(stop, pollSeconds);
        } else {
          new JobRun(client, config, s, job, out, err).run();
        }
      }
      out.println("stopped");
      return ExitCode.OK;
    } finally {
      heartbeats.shutdownNow();
      stopped.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(onStop);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs and waits for us
      }
    }
  }

  /** What serve needs, resolved from options, config and environment. */
  private static final class Settings {
    String server;
    String token;
    String product;
    String machine;
    int heartbeat;
    int repetitions;
    double scale;
    Path spool;
    int keepSent;
    Path workDir;
  }

  private Settings settings(AgentConfig config) {
    Settings s = new Settings();
    s.server = server.server(config, context);
    s.token = server.token(config, context);
    s.product = config.product();
    List<String> missing = new ArrayList<String>();
    if (s.server == null) {
      missing.add("the server (config 'server:' or --server)");
    }
    if (s.token == null) {
      missing.add("the token (config 'token:' or --token)");
    }
    if (s.product == null) {
      missing.add("the product (config 'product:')");
    }
    if (!missing.isEmpty()) {
      String last = missing.remove(missing.size() - 1);
      throw new ParameterException(spec.commandLine(), "serve needs "
          + (missing.isEmpty() ? "" : String.join(", ", missing) + " and ") + last);
    }
    s.machine = ServerOptions.first(config.machine(), context.hostName());
    s.heartbeat = heartbeatSeconds != null ? heartbeatSeconds : config.heartbeat() != null ? config.heartbeat() : 60;
    s.repetitions = config.repetitions() != null ? config.repetitions() : 5;
    s.scale = config.scale() != null ? config.scale() : 1.0;
    s.spool = server.spool(config, context);
    s.keepSent = ServerOptions.keepSent(config);
    s.workDir = workDir != null ? workDir
        : config.workDir() != null ? Paths.get(config.workDir()) : context.agentHome().resolve("work");
    if (s.heartbeat < 1) {
      throw new ParameterException(spec.commandLine(), "--heartbeat must be at least 1 second");
    }
    return s;
  }

  private void register(LabClient client, Settings s, AgentConfig config, PrintWriter out, PrintWriter err)
      throws InterruptedException {
    long wait = 1;
    while (stop.getCount() > 0) {
      try {
        offered.set(versions(resolve(config, s)));
        agentId = client.register(s.product, s.machine, AgentVersion.name(), s.heartbeat, offered.get());
        out.printf("registered %s (%s) as agent %d with %s: %s%n", s.machine, s.product, agentId,
            Words.count(offered.get().size(), "target"), offered.get());
        out.flush();
        return;
      } catch (IOException | AgentException e) {
        err.println("cannot register yet: " + e.getMessage() + "; trying again in " + wait + " s");
        err.flush();
        await(stop, wait);
        wait = Math.min(wait * 2, Math.max(pollSeconds, 1));
      }
    }
  }

  private void heartbeat(LabClient client) {
    try {
      client.heartbeat(agentId, progress.get(), offered.get());
    } catch (IOException e) {
      // the main loop notices a server that is away; a missed heartbeat only ages the lab page
    }
  }

  /** The targets now: the config's, then every discovered folder; versions resolved, in config order. */
  private List<TargetConfig> resolve(AgentConfig config, Settings s)
      throws IOException, AgentException, InterruptedException {
    List<TargetConfig> configured = new ArrayList<TargetConfig>(config.targets());
    configured.addAll(Discovery.targets(config.discover()));
    List<Target> targets = new TargetFactory(new ShellRunner(), context.windowsHost()).create(configured, s.workDir);
    List<TargetConfig> resolved = new ArrayList<TargetConfig>();
    for (int i = 0; i < targets.size(); i++) {
      TargetConfig c = configured.get(i);
      resolved.add(new TargetConfig(c.name(), targets.get(i).version(), null, c.shell(), c.env()));
    }
    return resolved;
  }

  private static List<String> versions(List<TargetConfig> targets) {
    List<String> versions = new ArrayList<String>();
    for (TargetConfig t : targets) {
      if (!versions.contains(t.version())) {
        versions.add(t.version());
      }
    }
    return versions;
  }

  private void sendSpool(Settings s, PrintWriter out, PrintWriter err) {
    try {
      Spool spool = new Spool(s.spool, s.server, s.keepSent);
      if (!spool.pending().isEmpty()) {
        Delivery.sendSpool(spool, s.server, s.token, server.retry(), FailOn.NEVER, out, err);
      }
    } catch (IOException e) {
      err.println("the spool waits: " + e.getMessage());
      err.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One job: measure its versions interleaved, spool, report finished (fenced by the lease), upload. */
  private static final String PROFILE = "profile";

  private final class JobRun {
    private final LabClient client;
    private final AgentConfig config;
    private final Settings s;
    private final LabClient.Job job;
    private final PrintWriter out;
    private final PrintWriter err;

    JobRun(LabClient client, AgentConfig config, Settings s, LabClient.Job job, PrintWriter out, PrintWriter err) {
      this.client = client;
      this.config = config;
      this.s = s;
      this.job = job;
      this.out = out;
      this.err = err;
    }

    void run() throws InterruptedException {
      out.printf("job %d (%s): %s%n", job.id, job.reason, job.plan == null ? job.versions : plan());
      out.flush();
      ShellRunner runner = new ShellRunner();
      current.set(runner);
      progress.set("preparing");
      try {
        if (PROFILE.equals(job.reason)) {
          profile(runner);
          return;
        }
        List<RunUpload> runs = measure(runner);
        if (runner.cancelled()) {
          report("returning job " + job.id + " to the queue", new Call() {
            @Override
            public void call() throws IOException {
              client.release(job);
            }
          });
          return;
        }
        for (RunUpload run : runs) {
          if (run.results().isEmpty()) {
            fail("no results for " + run.version() + ": " + run.failures());
            return;
          }
        }
        finishAndUpload(runs);
      } catch (AgentException | IOException | RuntimeException e) {
        if (runner.cancelled()) {
          report("returning job " + job.id + " to the queue", new Call() {
            @Override
            public void call() throws IOException {
              client.release(job);
            }
          });
        } else {
          fail(e.getMessage() == null ? e.toString() : e.getMessage());
        }
      } finally {
        current.set(null);
        progress.set(null);
      }
    }

    /** "write-64b at 1.5.20-1, 1.5.21-1, 1.5.22-1; fork at …" */
    private String plan() {
      StringBuilder text = new StringBuilder();
      for (LabClient.PlanEntry e : job.plan) {
        text.append(text.length() == 0 ? "" : "; ").append(e.benchmark).append(" at ").append(String.join(", ", e.versions));
      }
      return text.toString();
    }

    /** A profile job: profiles sent and the job finished by {@link ProfileJob}; a cancelled one goes back. */
    private void profile(ShellRunner runner) throws AgentException, IOException, InterruptedException {
      PrintWriter console = new PrintWriter(new ProgressWriter(out, progress), true);
      List<Long> ids = new ProfileJob(runner, context.windowsHost(), console).run(client, job, s.product, s.machine,
          targets(), Suite.select(job.benchmarks), s.workDir, s.repetitions, s.scale,
          Duration.ofSeconds(stepTimeoutSeconds));
      if (ids == null) {
        report("returning job " + job.id + " to the queue", new Call() {
          @Override
          public void call() throws IOException {
            client.release(job);
          }
        });
      }
    }

    /** The configured targets of the job's versions, in the job's order. */
    private List<TargetConfig> targets() throws AgentException, IOException, InterruptedException {
      Map<String, TargetConfig> byVersion = new LinkedHashMap<String, TargetConfig>();
      for (TargetConfig t : resolve(config, s)) {
        if (!byVersion.containsKey(t.version())) {
          byVersion.put(t.version(), t);
        }
      }
      List<TargetConfig> targets = new ArrayList<TargetConfig>();
      for (String v : job.versions) {
        TargetConfig t = byVersion.get(v);
        if (t == null) {
          throw new AgentException("this agent no longer offers version " + v);
        }
        targets.add(t);
      }
      return targets;
    }

    private List<RunUpload> measure(ShellRunner runner) throws AgentException, IOException, InterruptedException {
      List<TargetConfig> targets = targets();
      List<Benchmark> benchmarks = Suite.select(job.benchmarks != null ? job.benchmarks : config.benchmarks());
      RunPlan plan = new RunPlan(s.server, s.token, s.product, s.machine, s.repetitions,
          s.scale, benchmarks, targets, s.spool, s.workDir, false);
      PrintWriter console = new PrintWriter(new ProgressWriter(out, progress), true);
      return new Measurer(runner, context.windowsHost(), console).measure(plan,
          new SuiteSession.Settings(s.repetitions, s.scale, Duration.ofSeconds(stepTimeoutSeconds),
              config.noisyCv() != null ? config.noisyCv() / 100 : ResultTable.NOISY_CV),
          job.versionsByBenchmark(), run -> { });
    }

    private void finishAndUpload(List<RunUpload> runs) throws IOException, InterruptedException {
      Spool spool = new Spool(s.spool, s.server, s.keepSent);
      List<Path> files = new ArrayList<Path>();
      final List<String> ids = new ArrayList<String>();
      for (RunUpload run : runs) {
        files.add(spool.save(run));
        ids.add(run.id());
      }
      long wait = 1;
      while (true) {
        try {
          client.finish(job, ids);
          out.printf("job %d finished%n", job.id);
          break;
        } catch (LabClient.Refused e) {
          // the lease was lost (the server gave the job to another run of it): its runs are not ours to send
          err.printf("job %d was returned to the queue meanwhile (%s); its runs are discarded%n", job.id, e.getMessage());
          err.flush();
          for (Path f : files) {
            java.nio.file.Files.deleteIfExists(f);
          }
          return;
        } catch (IOException e) {
          if (stop.getCount() == 0) {
            out.println("stopping before the server took job " + job.id + "; its runs wait in the spool");
            return;
          }
          err.println("server unreachable (" + e.getMessage() + "); reporting job " + job.id + " again in " + wait + " s");
          err.flush();
          await(stop, wait);
          wait = Math.min(wait * 2, 60);
        }
      }
      Delivery.sendSpool(spool, s.server, s.token, server.retry(), FailOn.NEVER, out, err);
      if (job.plan != null && "confirm".equals(job.reason)) {
        sayWhatTheRoundShowed();
      }
    }

    /** A confirm job: what the server made of the round, once it judged it (a minute at most; then the lab page). */
    private void sayWhatTheRoundShowed() {
      for (int i = 0; i < 30 && stop.getCount() > 0; i++) {
        try {
          List<String> lines = client.outcomes(job);
          if (lines != null) {
            for (String line : lines) {
              out.println("CONFIRM " + line);
            }
            out.flush();
            return;
          }
        } catch (IOException e) {
          return; // a token without the read scope, a server away: the lab page says it
        }
        await(stop, 2);
      }
    }

    private void fail(final String error) {
      err.printf("job %d failed: %s%n", job.id, error);
      err.flush();
      report("reporting the failure of job " + job.id, new Call() {
        @Override
        public void call() throws IOException {
          client.fail(job, error);
        }
      });
    }

    private void report(String what, Call call) {
      try {
        call.call();
      } catch (IOException e) {
        err.println(what + " failed (" + e.getMessage() + "); the server's lease takes care of it");
        err.flush();
      }
      out.flush();
    }
  }

  private interface Call {
    void call() throws IOException;
  }

  /** Passes the console through and keeps its last progress line ("[ 2/3] write-64b …") for the heartbeat. */
  static final class ProgressWriter extends Writer {
    private final PrintWriter out;
    private final AtomicReference<String> progress;
    private final StringBuilder line = new StringBuilder();

    ProgressWriter(PrintWriter out, AtomicReference<String> progress) {
      this.out = out;
      this.progress = progress;
    }

    @Override
    public void write(char[] buffer, int offset, int length) {
      out.write(buffer, offset, length);
      for (int i = offset; i < offset + length; i++) {
        char c = buffer[i];
        if (c == '\n') {
          String text = line.toString().trim();
          if (text.startsWith("[")) {
            progress.set(text.replaceAll("\\s+", " "));
          }
          line.setLength(0);
        } else if (c != '\r') {
          line.append(c);
        }
      }
    }

    @Override
    public void flush() {
      out.flush();
    }

    @Override
    public void close() {
      out.flush();
    }
  }

  private static void await(CountDownLatch latch, long seconds) {
    try {
      latch.await(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory daemon(final String name) {
    return new ThreadFactory() {
      @Override
      public Thread newThread(Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
      }
    };
  }
}
