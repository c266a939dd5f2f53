package org.perftrack.server.lab;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.wire.VersionKey;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** What agents do with the server: register, heartbeat, claim, finish, fail, release. */
@Service
class Lab {

  private final Agents agents;
  private final Jobs jobs;
  private final LabMail mail;
  private final LabProperties props;
  private final JdbcClient jdbc;
  private final ApplicationEventPublisher events;

  Lab(Agents agents, Jobs jobs, LabMail mail, LabProperties props, JdbcClient jdbc, ApplicationEventPublisher events) {
    this.agents = agents;
    this.jobs = jobs;
    this.mail = mail;
    this.props = props;
    this.jdbc = jdbc;
    this.events = events;
  }

  /**
   * A (re)started agent: whatever it was running is lost, so its job returns to the queue at once. The agent
   * belongs to the token that registers it; registrations are serialized so that the caps hold.
   */
  @Transactional
  Agents.Agent register(String product, String machine, String agentVersion, int heartbeatSeconds, List<String> targets,
      List<JobKind> kinds, long tokenId) {
    jdbc.sql("SELECT pg_advisory_xact_lock(hashtext('lab_agent registration'))").query(Object.class).single();
    Agents.Counts counts = agents.countsBesides(product, machine, tokenId);
    if (counts.ofToken() >= props.maxAgentsPerToken()) {
      throw new Conflict("this token has registered " + counts.ofToken() + " agents, the most it may"
          + " (perftrack.lab.max-agents-per-token); an admin can remove agents that are gone");
    }
    if (counts.ofProduct() >= props.maxAgentsPerProduct()) {
      throw new Conflict("product " + product + " has " + counts.ofProduct() + " agents, the most it may"
          + " (perftrack.lab.max-agents-per-product); an admin can remove agents that are gone");
    }
    Agents.Agent agent = agents.register(product, machine, agentVersion, heartbeatSeconds, targets, kinds, tokenId)
        .orElseThrow(() -> new Conflict("machine " + machine + " of product " + product + " is the agent of another"
            + " API token; register it with that token, or an admin removes that agent (or revokes the token) first"));
    jobs.releaseHeldBy(agent.id());
    if (agents.back(agent.id())) {
      mail.back(agent);
    }
    queueNewVersions(agent);
    return agent;
  }

  @Transactional
  Agents.Agent heartbeat(long agentId, String progress, List<String> targets, long tokenId) {
    own(agentId, tokenId);
    Agents.Agent before = agents.find(agentId).orElseThrow(() -> new NotFound("no agent " + agentId));
    Agents.Agent agent = agents.heartbeat(agentId, progress, targets).orElseThrow();
    jobs.renew(agentId, progress, props.lease());
    if (agents.back(agentId)) {
      mail.back(agent);
    }
    if (targets != null && !targets.equals(before.targets())) {
      queueNewVersions(agent);
    }
    return agent;
  }

  @Transactional
  Optional<Jobs.Job> claim(long agentId, long tokenId) {
    own(agentId, tokenId);
    Agents.Agent agent = agents.heartbeat(agentId, null, null)
        .orElseThrow(() -> new NotFound("no agent " + agentId));
    return jobs.claim(agent, props.lease());
  }

  @Transactional
  Jobs.Job finish(long jobId, UUID lease, List<UUID> runIds, long tokenId) {
    Jobs.Job held = held(jobId, lease, tokenId);
    if (ProfileJobs.REASON.equals(held.reason())) {
      throw new InvalidInput("profileIds", "job " + jobId + " is a profile job: it finishes with profileIds");
    }
    int foreign = jobs.firstForeignRun(held, runIds);
    if (foreign >= 0) {
      throw new InvalidInput("runIds[" + foreign + "]", "run " + runIds.get(foreign) + " is not a run of this job"
          + " (product " + held.product() + ", machine " + held.machine() + ", versions " + held.versions() + ")");
    }
    Jobs.Job job = jobs.finish(jobId, lease, runIds).orElseThrow(() -> lost(jobId));
    if (job.agentId() != null && agents.succeeded(job.agentId())) {
      agents.find(job.agentId()).ifPresent(mail::working);
    }
    return job;
  }

  /** A profile job ends with the profiles its agent sent for it ({@code POST /api/v1/profiles}), each of this job. */
  @Transactional
  Jobs.Job finishProfiles(long jobId, UUID lease, List<Long> profileIds, long tokenId) {
    Jobs.Job held = held(jobId, lease, tokenId);
    if (!ProfileJobs.REASON.equals(held.reason())) {
      throw new InvalidInput("profileIds", "job " + jobId + " is a " + held.reason() + " job: it finishes with runIds");
    }
    int foreign = jobs.firstForeignProfile(jobId, profileIds);
    if (foreign >= 0) {
      throw new InvalidInput("profileIds[" + foreign + "]", "profile " + profileIds.get(foreign)
          + " is not a profile this job sent");
    }
    Jobs.Job job = jobs.finish(jobId, lease, List.of()).orElseThrow(() -> lost(jobId));
    if (job.agentId() != null && agents.succeeded(job.agentId())) {
      agents.find(job.agentId()).ifPresent(mail::working);
    }
    events.publishEvent(new ProfileJobs.Finished(job.id(), job.product(), job.machine(), job.versions(),
        job.benchmarks() == null ? List.of() : job.benchmarks(), List.copyOf(profileIds)));
    return job;
  }

  @Transactional
  Jobs.Job fail(long jobId, UUID lease, String error, long tokenId) {
    held(jobId, lease, tokenId);
    Jobs.Job job = jobs.fail(jobId, lease, error, props.maxAttempts()).orElseThrow(() -> lost(jobId));
    Long agentId = job.agentId() != null ? job.agentId() : null;
    if (agentId == null) {
      // a job that goes back to the queue no longer names its agent; the failure is still the caller's
      agentId = jdbc.sql("SELECT id FROM lab_agent WHERE product = ? AND machine = ? AND deletion_id IS NULL")
          .params(job.product(), job.machine()).query(Long.class).optional().orElse(null);
    }
    if (agentId != null) {
      agents.failed(agentId, error, props.failuresToMail()).ifPresent(mail::failing);
    }
    return job;
  }

  @Transactional
  void release(long jobId, UUID lease, long tokenId) {
    held(jobId, lease, tokenId);
    if (!jobs.release(jobId, lease)) {
      throw lost(jobId);
    }
  }

  private void own(long agentId, long tokenId) {
    if (!agents.ownedBy(agentId, tokenId)) {
      throw new NotFound("no agent " + agentId + " registered with this API token");
    }
  }

  /** The job, when it runs under {@code lease} on an agent of this token. */
  private Jobs.Job held(long jobId, UUID lease, long tokenId) {
    Jobs.Job job = jobs.find(jobId).orElseThrow(() -> new NotFound("no job " + jobId));
    if (!lease.equals(job.lease()) || job.agentId() == null) {
      throw lost(jobId);
    }
    own(job.agentId(), tokenId);
    return job;
  }

  private static Conflict lost(long jobId) {
    return new Conflict("job " + jobId + " is not held under this lease (it was returned to the queue"
        + " or finished elsewhere)");
  }

  static final String NEWEST_MEASURED = """
      SELECT v.name FROM run r
        JOIN product p ON p.id = r.product_id
        JOIN machine m ON m.id = r.machine_id
        JOIN version v ON v.id = r.version_id
       WHERE p.name = ? AND m.name = ?
       ORDER BY v.sort_key DESC
       LIMIT 1""";

  /**
   * A version the agent offers that is newer than everything measured on its machine is measured at
   * once, interleaved with the newest measured one. Older unmeasured versions (a folder of snapshots)
   * wait for a schedule or a bisection; a machine without any run waits for its first schedule.
   */
  private void queueNewVersions(Agents.Agent agent) {
    Optional<String> newest = jdbc.sql(NEWEST_MEASURED).params(agent.product(), agent.machine())
        .query(String.class).optional();
    if (newest.isEmpty()) {
      return;
    }
    String newestKey = VersionKey.of(newest.get());
    for (String v : agent.targets()) {
      if (VersionKey.of(v).compareTo(newestKey) > 0
          && !jobs.newVersionJobExists(agent.product(), agent.machine(), v)) {
        List<String> versions = agent.targets().contains(newest.get()) ? List.of(newest.get(), v) : List.of(v);
        jobs.enqueue(agent.product(), agent.machine(), versions, null, "new-version", null, "agent");
      }
    }
  }
}
