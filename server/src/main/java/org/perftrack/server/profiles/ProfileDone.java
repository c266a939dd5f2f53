package org.perftrack.server.profiles;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.perftrack.server.alerts.AlertService;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.lab.ProfileJobs;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The {@code profile.done} moment: a profile job finished, so the regressions of its machine and version pair have
 * their "Why" (or say what the job could not measure). Published once per job, inside the transaction that finishes
 * it; no mail of its own (the regression's mail links to the profile), webhooks that follow it get the profile.
 */
@Component
class ProfileDone {

  /**
   * What a {@code profile.done} webhook carries: the job's pair and, per open regression of that pair it profiled,
   * the regression's profile as {@code GET /api/v1/regressions/{id}/profile} answers it.
   */
  record View(long job, String product, String machine, String baselineVersion, String version,
      List<Member> regressions) {}

  record Member(long id, String benchmark, String metric, String url, ProfileComparison profile) {}

  private final Regressions regressions;
  private final RegressionProfiles profiles;
  private final AlertService alerts;

  ProfileDone(Regressions regressions, RegressionProfiles profiles, AlertService alerts) {
    this.regressions = regressions;
    this.profiles = profiles;
    this.alerts = alerts;
  }

  @EventListener
  void onFinished(ProfileJobs.Finished job) {
    View view = view(job);
    String pair = view.baselineVersion() + " -> " + view.version();
    String text;
    String link;
    if (view.regressions().isEmpty()) {
      text = job.product() + " on " + job.machine() + ": profiled " + String.join(", ", job.benchmarks()) + " at "
          + pair + " (no open regression of the pair is left)";
      link = "/lab";
    } else {
      Member first = view.regressions().get(0);
      int others = view.regressions().size() - 1;
      text = job.product() + " on " + job.machine() + ", " + pair + ": " + describe(first.profile())
          + (others == 0 ? "" : " (and " + others + " more " + (others == 1 ? "benchmark" : "benchmarks") + ")");
      link = first.url();
    }
    alerts.publish(new AlertService.Event("profile.done", "profile." + job.jobId(), job.product(), job.machine(), null,
        text, link, Map.of("profile", view)));
  }

  private static String describe(ProfileComparison p) {
    return p.sentence() != null ? p.sentence()
        : p.benchmark() + ": profile " + p.status().wire() + (p.reason() == null ? "" : " (" + p.reason() + ")");
  }

  View view(ProfileJobs.Finished job) {
    List<String> versions = job.versions();
    List<Member> members = regressions.list(job.product(), job.machine(), List.of(Regression.Status.OPEN),
        Regression.Kind.REGRESSION, 1000).stream()
        .filter(r -> job.benchmarks().contains(r.benchmark()))
        .filter(r -> {
          ProfileJobs.Pair pair = ProfileJobs.Pair.of(r);
          return new HashSet<>(versions).equals(new HashSet<>(List.of(pair.baseline(), pair.version())));
        })
        .map(r -> new Member(r.id(), r.benchmark(), r.metric(), "/regressions/" + r.id() + "#profile",
            profiles.of(r)))
        .toList();
    return new View(job.jobId(), job.product(), job.machine(), versions.get(0), versions.get(versions.size() - 1),
        members);
  }
}
