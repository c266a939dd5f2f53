package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.suite.Measurements;
import org.perftrack.agent.suite.PreparedTarget;
import org.perftrack.agent.suite.ResultTable;
import org.perftrack.agent.suite.RunAssembler;
import org.perftrack.agent.suite.SuiteSession;
import org.perftrack.agent.suite.TargetSetup;
import org.perftrack.wire.RunUpload;

/** One measuring session: targets prepared, the suite run interleaved, one run per target assembled. */
final class Measurer {

  /** Takes each target's run as soon as it is assembled (the spool), before the next target's is made. */
  interface RunSink {
    void accept(RunUpload run) throws IOException;
  }

  private final ShellRunner runner;
  private final boolean windowsHost;
  private final PrintWriter out;

  Measurer(ShellRunner runner, boolean windowsHost, PrintWriter out) {
    this.runner = runner;
    this.windowsHost = windowsHost;
    this.out = out;
  }

  List<RunUpload> measure(RunPlan plan, SuiteSession.Settings settings)
      throws AgentException, IOException, InterruptedException {
    return measure(plan, settings, run -> { });
  }

  List<RunUpload> measure(RunPlan plan, SuiteSession.Settings settings, RunSink sink)
      throws AgentException, IOException, InterruptedException {
    return measure(plan, settings, null, sink);
  }

  /** Each benchmark only at the versions {@code only} names for it (a lab job's plan); null: all at all. */
  List<RunUpload> measure(RunPlan plan, SuiteSession.Settings settings, Map<String, Set<String>> only,
      RunSink sink) throws AgentException, IOException, InterruptedException {
    List<Target> targets = new TargetFactory(runner, windowsHost).create(plan.targets(), plan.workDir());
    TargetSetup setup = new TargetSetup(runner);
    List<PreparedTarget> prepared = new ArrayList<>();
    for (Target t : targets) {
      out.printf("preparing %s in %s%n", t.name().equals(t.version()) ? t.name()
          : t.name() + " (version " + t.version() + ")", t.workDir());
      out.flush();
      PreparedTarget p;
      try {
        p = setup.prepare(t, plan.benchmarks());
      } catch (IOException e) {
        // a shell that does not exist, a work directory that cannot be written: say which target
        throw new AgentException("target " + t.name() + ": " + e.getMessage());
      }
      p.buildFailures().forEach((program, message) -> out.printf("  %s: %s%n", program, message));
      prepared.add(p);
    }
    List<Measurements> measured = new SuiteSession(runner, out)
        .run(prepared, plan.benchmarks(), settings, only);
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("scale", Double.toString(plan.scale()));
    attributes.put("repetitions", Integer.toString(plan.repetitions()));
    attributes.put("agent", AgentVersion.name());
    RunAssembler.Session session = new RunAssembler.Session(plan.product(), plan.machine(),
        UUID.randomUUID().toString(), attributes);
    // the session's runs of each product: the server judges them together once it has them all
    Map<String, Integer> perProduct = new LinkedHashMap<>();
    for (Measurements m : measured) {
      String product = m.target().target().product() != null ? m.target().target().product() : plan.product();
      perProduct.merge(product, 1, Integer::sum);
    }
    List<RunUpload> runs = new ArrayList<>();
    for (Measurements m : measured) {
      RunUpload assembled = RunAssembler.assemble(m, session);
      RunUpload run = assembled.withBatchSize(perProduct.get(assembled.product()));
      sink.accept(run);
      runs.add(run);
      try {
        ResultTable.print(out, m, settings.noisyCv());
      } catch (RuntimeException e) {
        // a table is for reading; the run is spooled already
        out.printf("(no table for %s: %s)%n", m.target().target().name(), e);
      }
    }
    return runs;
  }
}
