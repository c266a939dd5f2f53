package org.perftrack.server.lab;


import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.server.problems.Names;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.security.TokenPrincipal;
import org.perftrack.wire.Quantities;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The lab's REST API. Agents use the {@code agents} and {@code jobs} calls with the token they upload
 * with: writes under {@code /api/**} need a valid token (the security chain), which is the upload
 * scope's meaning today; when tokens get scopes, these calls belong to {@code upload}.
 */
@RestController
class LabApi {

  /** The most runs one job reports (two or three versions interleaved, one run each, in practice). */
  static final int MAX_RUNS = 500;

  /** {@code kinds}: the kinds of job the agent takes ({@link JobKind}); none named: an older agent, timing only. */
  record Registration(String product, String machine, String agentVersion, Integer heartbeatSeconds,
      List<String> targets, List<String> kinds) {

    Registration(String product, String machine, String agentVersion, Integer heartbeatSeconds, List<String> targets) {
      this(product, machine, agentVersion, heartbeatSeconds, targets, null);
    }
  }

  record Registered(long id, int heartbeatSeconds, long leaseSeconds) {}

  record Heartbeat(String progress, List<String> targets) {}

  /** A claimed job; {@code plan} only for the planned kinds (confirm, profile), else null. */
  record Claimed(long id, UUID lease, List<String> versions, List<String> benchmarks, String reason,
      List<PlanEntry> plan) {}

  /** A timing job finishes with the runs it measured; a profile job with the profiles it sent. */
  record Finish(UUID lease, List<UUID> runIds, List<Long> profileIds) {}

  record Failure(UUID lease, String error) {}

  record Release(UUID lease) {}

  record RunNow(String product, String machine, List<String> versions, List<String> benchmarks) {}

  record NewSchedule(String product, String machine, String cron) {}

  /**
   * The lab in pages of {@code perftrack.lab.page-size} agents and jobs; {@code nextPage} is null on the last.
   * Anonymous readers see neither who asked for a job or schedule nor what failed on an agent.
   */
  record Overview(List<Agents.Agent> agents, long agentCount, List<Jobs.Job> jobs, List<Bisections.Bisection> bisections,
      List<Schedules.Schedule> schedules, int page, Integer nextPage) {}

  private final Lab lab;
  private final LabQueue queue;
  private final Agents agents;
  private final Jobs jobs;
  private final Bisections bisections;
  private final Schedules schedules;
  private final Confirmations confirmations;
  private final LabProperties props;

  LabApi(Lab lab, LabQueue queue, Agents agents, Jobs jobs, Bisections bisections, Schedules schedules,
      Confirmations confirmations, LabProperties props) {
    this.confirmations = confirmations;
    this.lab = lab;
    this.queue = queue;
    this.agents = agents;
    this.jobs = jobs;
    this.bisections = bisections;
    this.schedules = schedules;
    this.props = props;
  }

  @GetMapping("/api/v1/lab")
  Overview overview(@RequestParam(defaultValue = "0") int page, Authentication who) {
    if (page < 0) {
      throw new InvalidInput("page", "must be 0 or more");
    }
    int size = props.pageSize();
    long count = agents.count();
    boolean open = LabView.seesEverything(who);
    Integer next = LabView.nextPage(page, size, agents, jobs);
    return new Overview(LabView.agents(agents.page(page, size), open), count, LabView.jobs(jobs.page(page, size), open),
        page == 0 ? LabView.bisections(bisections.recent(size), open) : List.of(),
        page == 0 ? LabView.schedules(schedules.all(), open) : List.of(), page, next);
  }

  @PostMapping("/api/v1/lab/agents")
  Registered register(@RequestBody Registration r, Authentication who) {
    Names.requireSegment("product", r.product());
    Names.requireSegment("machine", r.machine());
    int heartbeat = r.heartbeatSeconds() == null ? 60 : r.heartbeatSeconds();
    if (heartbeat < 1 || heartbeat > 86_400) {
      throw new InvalidInput("heartbeatSeconds", "must be between 1 and " + Quantities.count(86_400));
    }
    if (r.agentVersion() != null) {
      text("agentVersion", r.agentVersion(), Names.MAX_NAME);
    }
    Agents.Agent a = lab.register(r.product(), r.machine(), r.agentVersion(), heartbeat,
        versions("targets", r.targets(), true), kinds(r.kinds()), token(who));
    return new Registered(a.id(), a.heartbeatSeconds(), props.lease().toSeconds());
  }

  @PostMapping("/api/v1/lab/agents/{id}/heartbeat")
  Registered heartbeat(@PathVariable long id, @RequestBody Heartbeat h, Authentication who) {
    Agents.Agent a = lab.heartbeat(id, shorten(h.progress(), 500), versions("targets", h.targets(), false), token(who));
    return new Registered(a.id(), a.heartbeatSeconds(), props.lease().toSeconds());
  }

  @PostMapping("/api/v1/lab/agents/{id}/claim")
  ResponseEntity<Claimed> claim(@PathVariable long id, Authentication who) {
    return lab.claim(id, token(who)).map(j -> ResponseEntity.ok(new Claimed(j.id(), j.lease(), j.versions(),
        j.benchmarks(), j.reason(), j.plan()))).orElseGet(() -> ResponseEntity.noContent().build());
  }

  /** A job and, for a confirm job, what its round showed per series (an outcome is null until judged). */
  record JobState(Jobs.Job job, List<Confirmations.Outcome> outcomes) {}

  @GetMapping("/api/v1/lab/jobs/{id}")
  JobState job(@PathVariable long id, Authentication who) {
    Jobs.Job job = jobs.find(id).orElseThrow(() -> new NotFound("no job " + id));
    return new JobState(LabView.job(job, LabView.seesEverything(who)), confirmations.ofJob(job));
  }

  @PostMapping("/api/v1/lab/jobs/{id}/finish")
  Jobs.Job finish(@PathVariable long id, @RequestBody Finish f, Authentication who) {
    if (f.profileIds() != null) {
      if (f.profileIds().isEmpty() || f.profileIds().size() > MAX_RUNS) {
        throw new InvalidInput("profileIds", "list the ids of the profiles the job sent");
      }
      return lab.finishProfiles(id, lease(f.lease()), f.profileIds(), token(who));
    }
    if (f.runIds() == null || f.runIds().isEmpty() || f.runIds().size() > MAX_RUNS) {
      throw new InvalidInput("runIds", "list the ids of the runs the job measured");
    }
    return lab.finish(id, lease(f.lease()), f.runIds(), token(who));
  }

  @PostMapping("/api/v1/lab/jobs/{id}/fail")
  Jobs.Job fail(@PathVariable long id, @RequestBody Failure f, Authentication who) {
    String error = f.error() == null || f.error().isBlank() ? "the agent gave no reason" : shorten(f.error(), 2000);
    return lab.fail(id, lease(f.lease()), error, token(who));
  }

  @PostMapping("/api/v1/lab/jobs/{id}/release")
  ResponseEntity<Void> release(@PathVariable long id, @RequestBody Release r, Authentication who) {
    lab.release(id, lease(r.lease()), token(who));
    return ResponseEntity.noContent().build();
  }

  @PostMapping("/api/v1/lab/jobs")
  Jobs.Job runNow(@RequestBody RunNow r, Authentication who) {
    Names.requireSegment("product", r.product());
    Names.requireSegment("machine", r.machine());
    return queue.runNow(r.product(), r.machine(), versions("versions", r.versions(), false),
        benchmarks(r.benchmarks()), who.getName());
  }

  @PostMapping("/api/v1/lab/schedules")
  Schedules.Schedule schedule(@RequestBody NewSchedule s, Authentication who) {
    return schedules.create(s.product(), s.machine(), s.cron(), who.getName());
  }

  @DeleteMapping("/api/v1/lab/schedules/{id}")
  ResponseEntity<Void> unschedule(@PathVariable long id) {
    return schedules.delete(id) ? ResponseEntity.noContent().build() : ResponseEntity.notFound().build();
  }

  @GetMapping("/api/v1/regressions/{id}/bisection")
  Bisections.State bisection(@PathVariable long id) {
    return bisections.forRegression(id).orElseThrow(() -> new NotFound("no bisection for regression " + id));
  }

  @PostMapping("/api/v1/regressions/{id}/bisection")
  Bisections.State bisect(@PathVariable long id, Authentication who) {
    return queue.bisect(id, who.getName());
  }

  /** The token the agent calls with: an agent is bound to the token that registered it. */
  private static long token(Authentication who) {
    if (who != null && who.getPrincipal() instanceof TokenPrincipal token) {
      return token.tokenId();
    }
    throw new InvalidInput("Authorization", "a lab agent calls with the API token it registered with");
  }

  private static void text(String field, String value, int max) {
    List<FieldProblem> problems = new ArrayList<>(1);
    if (!Names.checkText(field, value, max, false, problems)) {
      throw new InvalidInput(problems);
    }
  }

  private static UUID lease(UUID lease) {
    if (lease == null) {
      throw new InvalidInput("lease", "give the lease the claim returned");
    }
    return lease;
  }

  /** Version names by the rules of upload names, at most {@code perftrack.lab.max-targets} of them. */
  private List<String> versions(String field, List<String> values, boolean required) {
    if (values == null) {
      if (required) {
        throw new InvalidInput(field, "list the versions the agent can run");
      }
      return null;
    }
    if (values.size() > props.maxTargets()) {
      throw new InvalidInput(field, "at most " + Quantities.count(props.maxTargets())
          + " versions (perftrack.lab.max-targets), got " + Quantities.count(values.size()));
    }
    List<FieldProblem> problems = new ArrayList<>();
    for (int i = 0; i < values.size() && problems.isEmpty(); i++) {
      Names.checkSegment(field + "[" + i + "]", values.get(i), problems);
    }
    if (!problems.isEmpty()) {
      throw new InvalidInput(problems);
    }
    return values.stream().distinct().toList();
  }

  /** The kinds an agent names, each one of {@link JobKind}; null when it names none (an older agent). */
  private static List<JobKind> kinds(List<String> values) {
    if (values == null) {
      return null;
    }
    if (values.size() > 10) {
      throw new InvalidInput("kinds", "at most 10 kinds, got " + Quantities.count(values.size()));
    }
    List<JobKind> kinds = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      String field = "kinds[" + i + "]";
      kinds.add(JobKind.parse(values.get(i)).orElseThrow(() -> new InvalidInput(field,
          "a kind of job is one of timing, confirm, profile")));
    }
    return kinds.stream().distinct().toList();
  }

  private List<String> benchmarks(List<String> values) {
    if (values == null) {
      return null;
    }
    if (values.size() > props.maxTargets()) {
      throw new InvalidInput("benchmarks", "at most " + Quantities.count(props.maxTargets()) + " benchmarks, got "
          + Quantities.count(values.size()));
    }
    List<FieldProblem> problems = new ArrayList<>();
    for (int i = 0; i < values.size() && problems.isEmpty(); i++) {
      Names.checkBenchmark("benchmarks[" + i + "]", values.get(i), problems);
    }
    if (!problems.isEmpty()) {
      throw new InvalidInput(problems);
    }
    return values.stream().distinct().toList();
  }

  private static String shorten(String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max);
  }
}
