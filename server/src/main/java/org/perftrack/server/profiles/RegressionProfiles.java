package org.perftrack.server.profiles;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.perftrack.server.alerts.ProfileLink;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.lab.JobStatus;
import org.perftrack.server.lab.ProfileJobs;
import org.perftrack.server.lab.ProfileJobs.JobState;
import org.perftrack.server.lab.ProfileJobs.Pair;
import org.perftrack.server.problems.NotFound;
import org.springframework.stereotype.Service;

/** A regression's profile: the state of its lab job, and the difference of its two versions' profiles once both exist. */
@Service
public class RegressionProfiles implements ProfileLink {

  private final Regressions regressions;
  private final ProfileJobs jobs;
  private final Profiles profiles;

  RegressionProfiles(Regressions regressions, ProfileJobs jobs, Profiles profiles) {
    this.regressions = regressions;
    this.jobs = jobs;
    this.profiles = profiles;
  }

  public ProfileComparison forRegression(long id) {
    return of(regressions.find(id).orElseThrow(() -> new NotFound("no regression " + id)));
  }

  /** The profile of a regression already at hand (its page). */
  public ProfileComparison of(Regression r) {
    Pair pair = Pair.of(r);
    Optional<JobState> job = jobs.newest(pair, r.benchmark());
    if (job.isPresent() && (job.get().status() == JobStatus.QUEUED || job.get().status() == JobStatus.RUNNING)) {
      return state(job.get().status() == JobStatus.QUEUED ? ProfileStatus.QUEUED : ProfileStatus.RUNNING, r, pair,
          null);
    }
    Optional<StoredProfile> base = profiles.newest(r.product(), r.machine(), r.benchmark(), pair.baseline());
    Optional<StoredProfile> head = profiles.newest(r.product(), r.machine(), r.benchmark(), pair.version());
    if (base.isPresent() && head.isPresent()) {
      return ProfileDiff.compare(base.get(), head.get());
    }
    if (job.isPresent() && job.get().status() == JobStatus.FAILED) {
      return state(ProfileStatus.FAILED, r, pair, job.get().error());
    }
    if (job.isPresent()) {
      return state(ProfileStatus.FAILED, r, pair, "the profile job finished without a profile of " + r.benchmark()
          + " at " + (base.isEmpty() ? pair.baseline() : pair.version()));
    }
    Optional<String> impossible = jobs.whyImpossible(pair);
    return impossible.map(why -> state(ProfileStatus.IMPOSSIBLE, r, pair, why))
        .orElseGet(() -> state(ProfileStatus.NONE, r, pair, null));
  }

  /** The regression page's "Why" card, when its profile is done, queued or running (the mail links to it). */
  @Override
  public String path(Regression r) {
    return link(r, of(r).status());
  }

  static String link(Regression r, ProfileStatus status) {
    return status == ProfileStatus.DONE || status == ProfileStatus.QUEUED || status == ProfileStatus.RUNNING
        ? "/regressions/" + r.id() + "#profile" : null;
  }

  /**
   * Queues a profile job of the regression's pair, for every open regression of that pair (one job, not one per
   * benchmark), unless one is queued or running; a profile done before is measured again.
   *
   * @throws org.perftrack.server.problems.Conflict when no agent of the machine offers both versions
   */
  public ProfileComparison request(long id, String by) {
    Regression r = regressions.find(id).orElseThrow(() -> new NotFound("no regression " + id));
    Pair pair = Pair.of(r);
    List<ProfileJobs.Member> benchmarks = new ArrayList<>(List.of(new ProfileJobs.Member(r.benchmark(), r.metric())));
    for (Regression other : regressions.list(r.product(), r.machine(), List.of(Regression.Status.OPEN),
        Regression.Kind.REGRESSION, 1000)) {
      if (Pair.of(other).equals(pair) && benchmarks.stream().noneMatch(m -> m.benchmark().equals(other.benchmark()))) {
        benchmarks.add(new ProfileJobs.Member(other.benchmark(), other.metric()));
      }
    }
    jobs.request(pair, benchmarks, by);
    return of(r);
  }

  /** The impossible state of a regression, for the answer of a request that no agent can serve. */
  public ProfileComparison impossible(long id, String why) {
    Regression r = regressions.find(id).orElseThrow(() -> new NotFound("no regression " + id));
    return state(ProfileStatus.IMPOSSIBLE, r, Pair.of(r), why);
  }

  private static ProfileComparison state(ProfileStatus status, Regression r, Pair pair, String reason) {
    return ProfileComparison.state(status, r.machine(), r.benchmark(), pair.baseline(), pair.version(), reason);
  }
}
