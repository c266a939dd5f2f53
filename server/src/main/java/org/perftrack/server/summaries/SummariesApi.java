package org.perftrack.server.summaries;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.wire.Quantities;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/summaries?product=&version=&status=} (open unless asked; {@code withdrawn}: those whose
 * members detection moved to other summaries; {@code all} for any),
 * {@code GET /api/v1/summaries/{id}} and {@code PATCH /api/v1/summaries/{id}}
 * {@code {"status", "note", "members": {"<regression id>": "<status>"}}}: triage of the whole summary,
 * with a status of its own for some members.
 */
@RestController
@RequestMapping("/api/v1/summaries")
class SummariesApi {

  static final int MAX_NOTE = 10_000;

  record TriageRequest(String status, String note, Map<String, String> members) {}

  private final Summaries summaries;

  SummariesApi(Summaries summaries) {
    this.summaries = summaries;
  }

  @GetMapping
  List<Summary> list(@RequestParam(required = false) String product, @RequestParam(required = false) String version,
      @RequestParam(required = false) String status) {
    return summaries.list(product, version, Summaries.listed(status));
  }

  @GetMapping("/{id}")
  Summary one(@PathVariable long id) {
    return summaries.find(id).orElseThrow(() -> new NotFound("no summary " + id));
  }

  @PatchMapping("/{id}")
  Summary triage(@PathVariable long id, @RequestBody TriageRequest request, Authentication who) {
    if (request.status() == null || request.status().isBlank()) {
      throw new InvalidInput("status", "is required: one of "
          + String.join(", ", Summaries.STATUSES.stream().map(Regression.Status::wire).toList()));
    }
    if (request.note() != null && request.note().length() > MAX_NOTE) {
      throw new InvalidInput("note", "must be at most " + Quantities.count(MAX_NOTE) + " characters");
    }
    return summaries.triage(id, Summaries.triageStatus("status", request.status()), request.note(),
            overrides(request.members()), who.getName())
        .orElseThrow(() -> new NotFound("no summary " + id));
  }

  static Map<Long, Regression.Status> overrides(Map<String, String> members) {
    Map<Long, Regression.Status> out = new LinkedHashMap<>();
    if (members != null) {
      members.forEach((k, v) -> {
        long id;
        try {
          id = Long.parseLong(k.strip());
        } catch (NumberFormatException e) {
          throw new InvalidInput("members." + k, "must be a regression id");
        }
        out.put(id, Summaries.triageStatus("members." + id, v));
      });
    }
    return out;
  }
}
