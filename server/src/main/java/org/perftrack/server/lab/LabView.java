package org.perftrack.server.lab;

import java.util.List;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;

/**
 * What anonymous readers of the lab (with {@code perftrack.security.public-read}) see: not who asked for a job
 * or a schedule (token and user names) and not what failed on an agent (error text may hold paths, host names
 * and command lines of the lab's machines). Signed-in users and API tokens see everything.
 */
final class LabView {

  static final String HIDDEN = "(shown to signed-in readers)";

  private LabView() {}

  /** The page after {@code page} of agents and jobs, or null when neither has more. */
  static Integer nextPage(int page, int size, Agents agents, Jobs jobs) {
    return (long) (page + 1) * size < Math.max(agents.count(), jobs.count()) ? page + 1 : null;
  }

  static boolean seesEverything(Authentication who) {
    return who != null && who.isAuthenticated() && !(who instanceof AnonymousAuthenticationToken);
  }

  static List<Agents.Agent> agents(List<Agents.Agent> agents, boolean open) {
    return open ? agents : agents.stream().map(a -> new Agents.Agent(a.id(), a.product(), a.machine(), a.agentVersion(),
        a.heartbeatSeconds(), a.targets(), a.registeredAt(), a.lastSeenAt(), a.progress(), a.consecutiveFailures(),
        a.lastRunAt(), a.lastFailureAt(), a.lastFailure() == null ? null : HIDDEN, a.silentMailed(), a.failingMailed(), a.kinds()))
        .toList();
  }

  /** A job as listed: never its lease (the agent's fence), and for anonymous readers neither its error nor its author. */
  static Jobs.Job job(Jobs.Job j, boolean open) {
    return j == null ? null : new Jobs.Job(j.id(), j.product(), j.machine(), j.versions(), j.benchmarks(),
        j.reason(), j.bisectionId(), j.status(), j.attempts(), j.agentId(), null, j.leaseUntil(), j.progress(),
        j.runIds(), open || j.error() == null ? j.error() : HIDDEN, open ? j.createdBy() : null, j.createdAt(),
        j.startedAt(), j.finishedAt(), j.plan());
  }

  static List<Jobs.Job> jobs(List<Jobs.Job> jobs, boolean open) {
    return jobs.stream().map(j -> job(j, open)).toList();
  }

  static List<Bisections.Bisection> bisections(List<Bisections.Bisection> bisections, boolean open) {
    return open ? bisections : bisections.stream().map(b -> {
      int failed = b.reason() == null ? -1 : b.reason().indexOf(" failed: ");
      return failed < 0 ? b : new Bisections.Bisection(b.id(), b.product(), b.machine(), b.baseline(), b.version(),
          b.benchmarks(), b.status(), b.lastGood(), b.firstBad(), b.rounds(), b.remeasured(), b.jobId(),
          b.reason().substring(0, failed + " failed".length()), b.regressionId(), b.createdAt(), b.finishedAt());
    }).toList();
  }

  static List<Schedules.Schedule> schedules(List<Schedules.Schedule> schedules, boolean open) {
    return open ? schedules : schedules.stream()
        .map(s -> new Schedules.Schedule(s.id(), s.product(), s.machine(), s.cron(), s.nextRunAt(), null)).toList();
  }
}
