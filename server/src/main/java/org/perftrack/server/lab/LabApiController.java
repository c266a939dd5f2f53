package org.perftrack.server.lab;

import java.util.List;
import java.util.UUID;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The lab's REST API. Agents use the {@code agents} and {@code jobs} calls with the token they upload
 * with: writes under {@code /api/**} need a valid token (the security chain), which is the upload
 * scope's meaning today; when tokens get scopes, these calls belong to {@code upload}.
 */
@RestController
class LabApiController {

  static final int MAX_NAME = 200;
  static final int MAX_TARGETS = 500;

  record Registration(String product, String machine, String agentVersion, Integer heartbeatSeconds,
      List<String> targets) {}

  record Registered(long id, int heartbeatSeconds, long leaseSeconds) {}

  record Heartbeat(String progress, List<String> targets) {}

  record Claimed(long id, UUID lease, List<String> versions, List<String> benchmarks, String reason) {}

  record Finish(UUID lease, List<UUID> runIds) {}

  record Failure(UUID lease, String error) {}

  record Release(UUID lease) {}

  record RunNow(String product, String machine, List<String> versions, List<String> benchmarks) {}

  record NewSchedule(String product, String machine, String cron) {}

  record Overview(List<Agents.Agent> agents, List<Jobs.Job> jobs, List<Bisections.Bisection> bisections,
      List<Schedules.Schedule> schedules) {}

  private final Lab lab;
  private final LabQueue queue;
  private final Agents agents;
  private final Jobs jobs;
  private final Bisections bisections;
  private final Schedules schedules;
  private final LabProperties props;

  LabApiController(Lab lab, LabQueue queue, Agents agents, Jobs jobs, Bisections bisections, Schedules schedules,
      LabProperties props) {
    this.lab = lab;
    this.queue = queue;
    this.agents = agents;
    this.jobs = jobs;
    this.bisections = bisections;
    this.schedules = schedules;
    this.props = props;
  }

  @GetMapping("/api/v1/lab")
  Overview overview() {
    return new Overview(agents.all(), jobs.recent(50), bisections.recent(50), schedules.all());
  }

  @PostMapping("/api/v1/lab/agents")
  Registered register(@RequestBody Registration r) {
    name("product", r.product());
    name("machine", r.machine());
    int heartbeat = r.heartbeatSeconds() == null ? 60 : r.heartbeatSeconds();
    if (heartbeat < 1 || heartbeat > 86_400) {
      throw new InvalidInput("heartbeatSeconds", "must be between 1 and 86400");
    }
    Agents.Agent a = lab.register(r.product(), r.machine(), shorten(r.agentVersion(), MAX_NAME), heartbeat,
        targets(r.targets(), true));
    return new Registered(a.id(), a.heartbeatSeconds(), props.lease().toSeconds());
  }

  @PostMapping("/api/v1/lab/agents/{id}/heartbeat")
  Registered heartbeat(@PathVariable long id, @RequestBody Heartbeat h) {
    Agents.Agent a = lab.heartbeat(id, shorten(h.progress(), 500), targets(h.targets(), false));
    return new Registered(a.id(), a.heartbeatSeconds(), props.lease().toSeconds());
  }

  @PostMapping("/api/v1/lab/agents/{id}/claim")
  ResponseEntity<Claimed> claim(@PathVariable long id) {
    return lab.claim(id).map(j -> ResponseEntity.ok(new Claimed(j.id(), j.lease(), j.versions(), j.benchmarks(),
        j.reason()))).orElseGet(() -> ResponseEntity.noContent().build());
  }

  @PostMapping("/api/v1/lab/jobs/{id}/finish")
  Jobs.Job finish(@PathVariable long id, @RequestBody Finish f) {
    if (f.runIds() == null || f.runIds().isEmpty() || f.runIds().size() > MAX_TARGETS) {
      throw new InvalidInput("runIds", "list the ids of the runs the job measured");
    }
    return lab.finish(id, lease(f.lease()), f.runIds());
  }

  @PostMapping("/api/v1/lab/jobs/{id}/fail")
  Jobs.Job fail(@PathVariable long id, @RequestBody Failure f) {
    String error = f.error() == null || f.error().isBlank() ? "the agent gave no reason" : shorten(f.error(), 2000);
    return lab.fail(id, lease(f.lease()), error);
  }

  @PostMapping("/api/v1/lab/jobs/{id}/release")
  ResponseEntity<Void> release(@PathVariable long id, @RequestBody Release r) {
    lab.release(id, lease(r.lease()));
    return ResponseEntity.noContent().build();
  }

  @PostMapping("/api/v1/lab/jobs")
  Jobs.Job runNow(@RequestBody RunNow r, Authentication who) {
    name("product", r.product());
    name("machine", r.machine());
    return queue.runNow(r.product(), r.machine(), targets(r.versions(), false), targets(r.benchmarks(), false),
        who.getName());
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

  private static void name(String field, String value) {
    if (value == null || value.isBlank() || value.length() > MAX_NAME) {
      throw new InvalidInput(field, "must be given, at most " + MAX_NAME + " characters");
    }
  }

  private static UUID lease(UUID lease) {
    if (lease == null) {
      throw new InvalidInput("lease", "give the lease the claim returned");
    }
    return lease;
  }

  private static List<String> targets(List<String> values, boolean required) {
    if (values == null) {
      if (required) {
        throw new InvalidInput("targets", "list the versions the agent can run");
      }
      return null;
    }
    if (values.size() > MAX_TARGETS || values.stream().anyMatch(v -> v == null || v.isBlank() || v.length() > MAX_NAME)) {
      throw new InvalidInput("targets", "at most " + MAX_TARGETS + " names of at most " + MAX_NAME + " characters");
    }
    return values.stream().map(String::trim).distinct().toList();
  }

  private static String shorten(String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max);
  }
}
