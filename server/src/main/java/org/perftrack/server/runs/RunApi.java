package org.perftrack.server.runs;

import java.util.UUID;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/runs/{id}}: one stored run with its samples and environment. */
@RestController
class RunApi {

  private final RunQueries runs;

  RunApi(RunQueries runs) {
    this.runs = runs;
  }

  @GetMapping("/api/v1/runs/{id}")
  RunQueries.StoredRunView run(@PathVariable String id, Authentication who) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new InvalidInput("id", "must be a UUID");
    }
    return runs.find(uuid, who).orElseThrow(() -> new NotFound("no run " + id));
  }
}
