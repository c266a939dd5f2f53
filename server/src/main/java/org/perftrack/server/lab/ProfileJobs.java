package org.perftrack.server.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.NotFound;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The lab's side of profiles: a {@code profile} job measures the regressed benchmarks of one machine and version
 * pair (every one of them in one job), and only an agent that declares the {@code profile} kind takes it. Open
 * regressions get one automatically, once per pair and benchmark; the regression page and API ask again.
 */
@Service
public class ProfileJobs {

  /** The two versions a regression's profile compares: its bisection's ends when bisected, else its own. */
  public record Pair(String product, String machine, String baseline, String version) {

    public static Pair of(Regression r) {
      Regression.Bisection b = r.bisection();
      return b != null && "done".equals(b.status()) && b.lastGood() != null && b.firstBad() != null
          ? new Pair(r.product(), r.machine(), b.lastGood(), b.firstBad())
          : new Pair(r.product(), r.machine(), r.baselineVersion(), r.version());
    }
  }

  /** A profile job as its agent holds it: what {@code POST /api/v1/profiles} may send for it. */
  public record HeldJob(long id, String product, String machine, List<String> versions, List<String> benchmarks) {}

  /** A regressed benchmark (and the metric that regressed) of a pair. */
  public record Member(String benchmark, String metric) {}

  /** The newest profile job of a pair that covers a benchmark. */
  public record JobState(long id, JobStatus status, String error) {}

  /**
   * An application event: a profile job finished with its profiles (published inside the finishing transaction, so
   * what a listener stores commits with the job, once).
   */
  public record Finished(long jobId, String product, String machine, List<String> versions, List<String> benchmarks,
      List<Long> profileIds) {}

  static final String REASON = "profile";

  private final Agents agents;
  private final Jobs jobs;
  private final Regressions regressions;
  private final JdbcClient jdbc;

  ProfileJobs(Agents agents, Jobs jobs, Regressions regressions, JdbcClient jdbc) {
    this.agents = agents;
    this.jobs = jobs;
    this.regressions = regressions;
    this.jdbc = jdbc;
  }

  static final String NEWEST = """
      SELECT id, status, error FROM lab_job
       WHERE reason = 'profile' AND product = ? AND machine = ? AND versions = CAST(? AS text[])
         AND ? = ANY (benchmarks)
       ORDER BY id DESC LIMIT 1""";

  public Optional<JobState> newest(Pair pair, String benchmark) {
    return jdbc.sql(NEWEST).params(pair.product(), pair.machine(), new String[] {pair.baseline(), pair.version()},
        benchmark).query((rs, n) -> new JobState(rs.getLong("id"),
            org.perftrack.server.db.Rows.wire(JobStatus.class, rs.getString("status")), rs.getString("error")))
        .optional();
  }

  /** Why no agent can profile the pair, or empty when one can. */
  public Optional<String> whyImpossible(Pair pair) {
    Optional<Agents.Agent> agent = agents.find(pair.product(), pair.machine());
    if (agent.isEmpty()) {
      return Optional.of("no lab agent runs " + pair.product() + " on " + pair.machine());
    }
    if (!agent.get().kinds().contains(JobKind.PROFILE)) {
      return Optional.of("the agent of " + pair.machine() + " does not take profile jobs (an agent older than"
          + " profiles, or one that does not name the profile kind)");
    }
    if (!agent.get().targets().contains(pair.baseline()) || !agent.get().targets().contains(pair.version())) {
      return Optional.of("the agent of " + pair.machine() + " does not offer both " + pair.baseline() + " and "
          + pair.version());
    }
    return Optional.empty();
  }

  /**
   * Queues a profile job of the pair for these benchmarks unless a queued or running one covers the first of them.
   *
   * @throws Conflict when no agent can run it (nothing is stored)
   */
  @Transactional
  public JobState request(Pair pair, List<Member> benchmarks, String by) {
    whyImpossible(pair).ifPresent(why -> {
      throw new Conflict("cannot profile: " + why);
    });
    Optional<JobState> newest = newest(pair, benchmarks.get(0).benchmark());
    if (newest.isPresent() && (newest.get().status() == JobStatus.QUEUED || newest.get().status() == JobStatus.RUNNING)) {
      return newest.get();
    }
    Jobs.Job job = enqueue(pair, benchmarks, by);
    return new JobState(job.id(), job.status(), null);
  }

  /**
   * For every open regression whose pair the machine's agent offers: a job for the benchmarks of the pair that no
   * profile job covers yet (a pair is profiled once unless someone asks again).
   */
  @Transactional
  public int startAutomatic() {
    int queued = 0;
    for (Agents.Agent agent : agents.takingProfiles()) {
      Map<Pair, List<Member>> uncovered = new LinkedHashMap<>();
      for (Regression r : regressions.list(agent.product(), agent.machine(), List.of(Regression.Status.OPEN),
          Regression.Kind.REGRESSION, 1000)) {
        Pair pair = Pair.of(r);
        if (agent.targets().contains(pair.baseline()) && agent.targets().contains(pair.version())
            && newest(pair, r.benchmark()).isEmpty()) {
          List<Member> members = uncovered.computeIfAbsent(pair, p -> new ArrayList<>());
          if (members.stream().noneMatch(m -> m.benchmark().equals(r.benchmark()))) {
            members.add(new Member(r.benchmark(), r.metric()));
          }
        }
      }
      for (Map.Entry<Pair, List<Member>> e : uncovered.entrySet()) {
        enqueue(e.getKey(), e.getValue(), "automatic");
        queued++;
      }
    }
    return queued;
  }

  /** One job for the pair: a plan entry per benchmark, each at both versions. */
  private Jobs.Job enqueue(Pair pair, List<Member> members, String by) {
    List<PlanEntry> plan = members.stream().sorted(java.util.Comparator.comparing(Member::benchmark))
        .map(m -> new PlanEntry(m.benchmark(), m.metric(), List.of(pair.baseline(), pair.version()))).toList();
    return jobs.enqueue(pair.product(), pair.machine(), REASON, plan, by);
  }

  /**
   * The profile job {@code jobId} when it runs on an agent registered with {@code tokenId}: only the job's own agent
   * sends its profiles.
   */
  public HeldJob held(long jobId, long tokenId) {
    Jobs.Job job = jobs.find(jobId).filter(j -> REASON.equals(j.reason()))
        .orElseThrow(() -> new NotFound("no profile job " + jobId));
    if (job.status() != JobStatus.RUNNING || job.agentId() == null || !agents.ownedBy(job.agentId(), tokenId)) {
      throw new Conflict("profile job " + jobId + " is not running on an agent of this API token");
    }
    return new HeldJob(job.id(), job.product(), job.machine(), job.versions(),
        job.benchmarks() == null ? List.of() : job.benchmarks());
  }
}
