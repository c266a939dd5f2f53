package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.ConfigLoader;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.Spool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: the agent as a lab service. It registers its machine and the versions it can run
 * (explicit and discovered targets), sends heartbeats that carry the running job's progress, pulls
 * jobs and runs each as one {@link LabJob}. A lost connection is waited out; a restart registers again (the server
 * puts the interrupted job back in the queue); Ctrl-C or a service stop ends the benchmark processes and
 * returns the job to the queue ({@link ServeState}). Java 8 code: the agent runs on the lab's old Windows machines.
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
  private final ServeState state = new ServeState();

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
    final ServeSettings s = ServeSettings.of(this, config, context);
    final LabClient client = new LabClient(s.server, s.token);
    Thread onStop = state.stopHook();
    Runtime.getRuntime().addShutdownHook(onStop);
    ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(daemon("perftrack-heartbeat"));
    try {
      sendSpool(s, out, err);
      register(client, s, out, err);
      heartbeats.scheduleWithFixedDelay(new Runnable() {
        @Override
        public void run() {
          heartbeat(client);
        }
      }, s.heartbeat, s.heartbeat, TimeUnit.SECONDS);
      serve(client, s, out, err);
      out.println("stopped");
      return ExitCode.OK;
    } finally {
      heartbeats.shutdownNow();
      state.ended();
      try {
        Runtime.getRuntime().removeShutdownHook(onStop);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs and waits for us
      }
    }
  }

  /** Until stopped: claim a job (registering again when the server forgot this agent) and run it, or wait. */
  private void serve(LabClient client, ServeSettings s, PrintWriter out, PrintWriter err) throws InterruptedException {
    while (!state.stopping()) {
      LabClient.Job job = null;
      try {
        state.offered.set(ServeSettings.versions(s.targets()));
        job = client.claim(state.agentId);
      } catch (LabClient.Refused e) {
        if (e.status == 404) {
          register(client, s, out, err);
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
        state.pause(pollSeconds);
      } else {
        new LabJob(client, s, state, job, out, err).run();
      }
    }
  }

  private void register(LabClient client, ServeSettings s, PrintWriter out, PrintWriter err)
      throws InterruptedException {
    long wait = 1;
    while (!state.stopping()) {
      try {
        state.offered.set(ServeSettings.versions(s.targets()));
        state.agentId = client.register(s.product, s.machine, AgentVersion.name(), s.heartbeat, state.offered.get());
        out.printf("registered %s (%s) as agent %d with %s: %s%n", s.machine, s.product, state.agentId,
            Words.count(state.offered.get().size(), "target"), state.offered.get());
        out.flush();
        return;
      } catch (IOException | AgentException e) {
        err.println("cannot register yet: " + e.getMessage() + "; trying again in " + wait + " s");
        err.flush();
        state.pause(wait);
        wait = Math.min(wait * 2, Math.max(pollSeconds, 1));
      }
    }
  }

  private void heartbeat(LabClient client) {
    try {
      client.heartbeat(state.agentId, state.progress.get(), state.offered.get());
    } catch (IOException e) {
      // the main loop notices a server that is away; a missed heartbeat only ages the lab page
    }
  }

  private void sendSpool(ServeSettings s, PrintWriter out, PrintWriter err) {
    try {
      Spool spool = new Spool(s.spool, s.server, s.keepSent);
      if (!spool.pending().isEmpty()) {
        Delivery.sendSpool(spool, s.server, s.token, s.retry, FailOn.NEVER, out, err);
      }
    } catch (IOException e) {
      err.println("the spool waits: " + e.getMessage());
      err.flush();
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
