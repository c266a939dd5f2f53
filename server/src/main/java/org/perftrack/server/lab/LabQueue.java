package org.perftrack.server.lab;

import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** What people ask of the lab (the page's buttons and the API): run now, bisect. */
@Service
class LabQueue {

  private final Agents agents;
  private final Jobs jobs;
  private final Bisections bisections;
  private final Bisector bisector;

  LabQueue(Agents agents, Jobs jobs, Bisections bisections, Bisector bisector) {
    this.agents = agents;
    this.jobs = jobs;
    this.bisections = bisections;
    this.bisector = bisector;
  }

  /** Queues a job of the given versions (default: every target the agent offers). */
  @Transactional
  Jobs.Job runNow(String product, String machine, List<String> versions, List<String> benchmarks, String by) {
    Agents.Agent agent = agents.find(product, machine)
        .orElseThrow(() -> new InvalidInput("machine", "no agent runs " + product + " on " + machine));
    List<String> chosen = versions == null || versions.isEmpty() ? agent.targets() : versions;
    if (chosen.isEmpty()) {
      throw new InvalidInput("versions", "the agent offers no targets");
    }
    if (!agent.targets().containsAll(chosen)) {
      throw new InvalidInput("versions", "the agent of " + machine + " offers only " + agent.targets());
    }
    return jobs.enqueue(product, machine, chosen, benchmarks == null || benchmarks.isEmpty() ? null : benchmarks,
        "manual", null, by);
  }

  Bisections.State bisect(long regressionId, String by) {
    if (bisections.regression(regressionId).isEmpty()) {
      throw new NotFound("no regression " + regressionId);
    }
    return bisector.request(regressionId, by);
  }
}
