package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.suite.Benchmark;
import org.perftrack.agent.suite.ResultTable;
import org.perftrack.agent.suite.Suite;
import org.perftrack.agent.suite.SuiteSession;
import org.perftrack.agent.upload.Spool;
import org.perftrack.wire.RunUpload;

/**
 * One job that {@code serve} claimed: its versions measured interleaved (or profiled, for a profile job), the runs
 * spooled, the job reported finished (fenced by the lease) and the runs uploaded; a confirm job then prints what the
 * server made of the round. A stop returns the job to the queue; an error reports it failed.
 */
final class LabJob {

  private static final String PROFILE = "profile";
  private static final String CONFIRM = "confirm";

  private final LabClient client;
  private final ServeSettings s;
  private final ServeState state;
  private final LabClient.Job job;
  private final PrintWriter out;
  private final PrintWriter err;

  LabJob(LabClient client, ServeSettings s, ServeState state, LabClient.Job job, PrintWriter out, PrintWriter err) {
    this.client = client;
    this.s = s;
    this.state = state;
    this.job = job;
    this.out = out;
    this.err = err;
  }

  void run() throws InterruptedException {
    out.printf("job %d (%s): %s%n", job.id, job.reason, job.plan == null ? job.versions : plan());
    out.flush();
    ShellRunner runner = new ShellRunner();
    state.current.set(runner);
    state.progress.set("preparing");
    try {
      if (PROFILE.equals(job.reason)) {
        profile(runner);
      } else {
        measureAndUpload(runner);
      }
    } catch (AgentException | IOException | RuntimeException e) {
      if (runner.cancelled()) {
        release();
      } else {
        fail(e.getMessage() == null ? e.toString() : e.getMessage());
      }
    } finally {
      state.current.set(null);
      state.progress.set(null);
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
    PrintWriter console = new PrintWriter(new ProgressWriter(out, state.progress), true);
    List<Long> ids = new ProfileJob(runner, s.context.windowsHost(), console).run(client, job, s.product, s.machine,
        targets(), Suite.select(job.benchmarks), s.workDir, s.repetitions, s.scale, s.stepTimeout);
    if (ids == null) {
      release();
    }
  }

  private void measureAndUpload(ShellRunner runner) throws AgentException, IOException, InterruptedException {
    List<RunUpload> runs = measure(runner);
    if (runner.cancelled()) {
      release();
      return;
    }
    for (RunUpload run : runs) {
      if (run.results().isEmpty()) {
        fail("no results for " + run.version() + ": " + run.failures());
        return;
      }
    }
    if (finish(runs)) {
      Delivery.sendSpool(spool(), s.server, s.token, s.retry, FailOn.NEVER, out, err);
      if (job.plan != null && CONFIRM.equals(job.reason)) {
        sayWhatTheRoundShowed();
      }
    }
  }

  /** The configured targets of the job's versions, in the job's order. */
  private List<TargetConfig> targets() throws AgentException, IOException, InterruptedException {
    Map<String, TargetConfig> byVersion = new LinkedHashMap<String, TargetConfig>();
    for (TargetConfig t : s.targets()) {
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
    List<Benchmark> benchmarks = Suite.select(job.benchmarks != null ? job.benchmarks : s.config.benchmarks());
    RunPlan plan = new RunPlan(s.server, s.token, s.product, s.machine, s.repetitions,
        s.scale, benchmarks, targets, s.spool, s.workDir, false);
    PrintWriter console = new PrintWriter(new ProgressWriter(out, state.progress), true);
    return new Measurer(runner, s.context.windowsHost(), console).measure(plan,
        new SuiteSession.Settings(s.repetitions, s.scale, s.stepTimeout,
            s.config.noisyCv() != null ? s.config.noisyCv() / 100 : ResultTable.NOISY_CV),
        job.versionsByBenchmark(), run -> { });
  }

  private Spool spool() {
    return new Spool(s.spool, s.server, s.keepSent);
  }

  /**
   * Spools the runs and reports the job finished, again while the server is away; false when the lease was lost
   * (the runs are discarded: the server gave the job to another run of it) or a stop came first (they wait).
   */
  private boolean finish(List<RunUpload> runs) throws IOException {
    Spool spool = spool();
    List<Path> files = new ArrayList<Path>();
    List<String> ids = new ArrayList<String>();
    for (RunUpload run : runs) {
      files.add(spool.save(run));
      ids.add(run.id());
    }
    for (long wait = 1; ; wait = Math.min(wait * 2, 60)) {
      try {
        client.finish(job, ids);
        out.printf("job %d finished%n", job.id);
        return true;
      } catch (LabClient.Refused e) {
        err.printf("job %d was returned to the queue meanwhile (%s); its runs are discarded%n", job.id, e.getMessage());
        err.flush();
        for (Path f : files) {
          Files.deleteIfExists(f);
        }
        return false;
      } catch (IOException e) {
        if (state.stopping()) {
          out.println("stopping before the server took job " + job.id + "; its runs wait in the spool");
          return false;
        }
        err.println("server unreachable (" + e.getMessage() + "); reporting job " + job.id + " again in " + wait + " s");
        err.flush();
        state.pause(wait);
      }
    }
  }

  /** A confirm job: what the server made of the round, once it judged it (a minute at most; then the lab page). */
  private void sayWhatTheRoundShowed() {
    for (int i = 0; i < 30 && !state.stopping(); i++) {
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
      state.pause(2);
    }
  }

  private void release() {
    report("returning job " + job.id + " to the queue", new Call() {
      @Override
      public void call() throws IOException {
        client.release(job);
      }
    });
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

  private interface Call {
    void call() throws IOException;
  }
}
