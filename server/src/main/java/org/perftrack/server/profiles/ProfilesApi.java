package org.perftrack.server.profiles;

import java.util.List;
import org.perftrack.server.lab.ProfileJobs;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.security.TokenPrincipal;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/profiles} (the agent of a profile job, upload scope), {@code GET /api/v1/profiles/{id}} and its
 * raw tracer output, and a regression's profile: {@code GET|POST /api/v1/regressions/{id}/profile}.
 */
@RestController
class ProfilesApi {

  record Stored(long id, long job, String version, String benchmark) {}

  private final ProfileStore store;
  private final Profiles profiles;
  private final RegressionProfiles regressionProfiles;
  private final ProfileJobs jobs;

  ProfilesApi(ProfileStore store, Profiles profiles, RegressionProfiles regressionProfiles, ProfileJobs jobs) {
    this.store = store;
    this.profiles = profiles;
    this.regressionProfiles = regressionProfiles;
    this.jobs = jobs;
  }

  @PostMapping("/api/v1/profiles")
  @io.swagger.v3.oas.annotations.Operation(description = "One profile of a benchmark at one version, per operation, "
      + "sent by the agent running the profile job (`job`) with the token it registered with: `syscalls` "
      + "[{name, callsPerOp, errorsPerOp, timeShare}], `counters` [{name, perOp}], `functions` [{name, module, "
      + "selfShare}], `missing` (tools that were missing or not permitted), `rawSyscalls` and `rawFunctions` (the "
      + "tracers' tables, at most 64 KiB each). The agent then finishes the job with `{\"lease\", \"profileIds\"}`.")
  @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "201", description = "Stored: its id, job, "
      + "version and benchmark. 400 names each bad field; 409 when the job is not running on an agent of this token.")
  ResponseEntity<Stored> upload(@RequestBody ProfileUpload upload, Authentication who) {
    if (upload.job() == null) {
      throw new InvalidInput("job", "name the profile job this profile measures");
    }
    ProfileJobs.HeldJob job = jobs.held(upload.job(), token(who));
    long id = store.store(job, upload);
    return ResponseEntity.status(HttpStatus.CREATED).body(new Stored(id, job.id(), upload.version(),
        upload.benchmark()));
  }

  @GetMapping("/api/v1/profiles/{id}")
  StoredProfile profile(@PathVariable long id) {
    return profiles.find(id).orElseThrow(() -> new NotFound("no profile " + id));
  }

  @GetMapping(value = "/api/v1/profiles/{id}/raw/{part}", produces = MediaType.TEXT_PLAIN_VALUE)
  @io.swagger.v3.oas.annotations.Operation(description = "The raw tracer output kept with a profile: `syscalls` "
      + "(the strace -c table) or `functions` (perf's top 50 functions).")
  String raw(@PathVariable long id, @PathVariable String part) {
    return profiles.rawText(id, part);
  }

  @GetMapping("/api/v1/regressions/{id}/profile")
  ProfileComparison regressionProfile(@PathVariable long id) {
    return regressionProfiles.forRegression(id);
  }

  @PostMapping("/api/v1/regressions/{id}/profile")
  @io.swagger.v3.oas.annotations.Operation(description = "Queues a profile job of the regression's two versions "
      + "(every open regression of that machine and pair in one job) and answers 202 with the state; 409 with "
      + "`state: impossible` when no lab agent of the machine offers both versions (nothing is stored).")
  @io.swagger.v3.oas.annotations.responses.ApiResponse(responseCode = "202", description = "Queued, or a job of the "
      + "pair already waits or runs: the profile's state as GET answers it.")
  ResponseEntity<Object> requestProfile(@PathVariable long id, Authentication who) {
    try {
      return ResponseEntity.status(HttpStatus.ACCEPTED).body(regressionProfiles.request(id, who.getName()));
    } catch (Conflict e) {
      ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
      pd.setProperty("state", ProfileStatus.IMPOSSIBLE.wire());
      pd.setProperty("profile", regressionProfiles.impossible(id, e.getMessage()));
      return ResponseEntity.status(HttpStatus.CONFLICT).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(pd);
    }
  }

  private static long token(Authentication who) {
    if (who != null && who.getPrincipal() instanceof TokenPrincipal token) {
      return token.tokenId();
    }
    throw new InvalidInput(List.of(new InvalidInput.FieldProblem("Authorization",
        "a profile is sent by the lab agent of its job, with the API token it registered with")));
  }
}
