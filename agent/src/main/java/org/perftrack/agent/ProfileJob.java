package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.profile.Profile;
import org.perftrack.agent.profile.Profiler;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.suite.Benchmark;
import org.perftrack.agent.suite.PreparedTarget;
import org.perftrack.agent.suite.TargetSetup;

/**
 * A lab job of the {@code profile} kind: the planned benchmarks profiled at the job's versions, interleaved, each
 * profile sent ({@code POST /api/v1/profiles}) and the job finished with their ids. Nothing of it is a timing sample.
 */
final class ProfileJob {

  /** Repetitions of the untraced resource-usage pass: a profile explains, the timing runs measure. */
  static final int MAX_REPETITIONS = 3;

  private final ShellRunner runner;
  private final boolean windowsHost;
  private final PrintWriter out;

  ProfileJob(ShellRunner runner, boolean windowsHost, PrintWriter out) {
    this.runner = runner;
    this.windowsHost = windowsHost;
    this.out = out;
  }

  /** Profiles, sends and finishes; returns the profiles' ids. */
  List<Long> run(LabClient client, LabClient.Job job, String product, String machine, List<TargetConfig> targets,
      List<Benchmark> benchmarks, Path workDir, int repetitions, double scale, Duration stepTimeout)
      throws AgentException, IOException, InterruptedException {
    List<PreparedTarget> prepared = new ArrayList<>();
    TargetSetup setup = new TargetSetup(runner);
    for (Target t : new TargetFactory(runner, windowsHost).create(targets, workDir)) {
      out.printf("preparing %s in %s for profiling%n", t.version(), t.workDir());
      out.flush();
      prepared.add(setup.prepare(t, benchmarks));
    }
    List<Profile> profiles = new Profiler(runner, out).profile(prepared, benchmarks,
        Math.min(MAX_REPETITIONS, Math.max(1, repetitions)), scale, stepTimeout);
    if (runner.cancelled()) {
      return null;
    }
    if (profiles.isEmpty()) {
      throw new AgentException("no benchmark of the job could be profiled");
    }
    List<Long> ids = new ArrayList<>();
    for (Profile p : profiles) {
      if (!p.missing().isEmpty()) {
        out.printf("%s at %s: not measured: %s%n", p.benchmark(), p.version(), String.join("; ", p.missing()));
      }
      ids.add(client.sendProfile(p.toWire(job.id, product, machine)));
    }
    client.finishProfiles(job, ids);
    out.printf("job %d finished: %d profiles%n", job.id, ids.size());
    out.flush();
    return ids;
  }
}
