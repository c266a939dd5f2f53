package org.perftrack.server.detection;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.perftrack.server.web.ApiProblem;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/regressions} and {@code PATCH /api/v1/regressions/{id}}. The list shows
 * regressions (not improvements, unless {@code kind=improvement}) that are not withdrawn, unless a
 * {@code status} (comma-separated) asks for others.
 */
@RestController
@RequestMapping("/api/v1/regressions")
class RegressionsController {

  static final List<String> VISIBLE = List.of("open", "acknowledged", "invalid", "fixed", "wontfix");
  static final Set<String> TRIAGE = Set.copyOf(VISIBLE);
  static final int MAX_LIMIT = 5000;

  record TriageRequest(String status, String note) {}

  private final RegressionQueries queries;

  RegressionsController(RegressionQueries queries) {
    this.queries = queries;
  }

  @GetMapping
  List<RegressionQueries.Item> list(@RequestParam(required = false) String product,
      @RequestParam(required = false) String machine, @RequestParam(required = false) String status,
      @RequestParam(defaultValue = "regression") String kind, @RequestParam(defaultValue = "500") int limit) {
    List<String> statuses = status == null || status.isBlank() ? VISIBLE
        : Arrays.stream(status.split(",")).map(String::trim).toList();
    for (String s : statuses) {
      RegressionStatus st = parse(s);
      if (st == null) {
        throw ApiProblem.badRequest("status", "must be open, acknowledged, invalid, fixed, wontfix or withdrawn");
      }
    }
    if (!kind.equals("regression") && !kind.equals("improvement")) {
      throw ApiProblem.badRequest("kind", "must be regression or improvement");
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw ApiProblem.badRequest("limit", "must be between 1 and " + MAX_LIMIT);
    }
    return queries.list(product, machine, statuses, kind, limit);
  }

  @PatchMapping("/{id}")
  RegressionQueries.Item triage(@PathVariable long id, @RequestBody TriageRequest request, Authentication who) {
    if (request.status() == null && request.note() == null) {
      throw ApiProblem.badRequest("status", "give a status or a note");
    }
    if (request.status() != null && !TRIAGE.contains(request.status())) {
      throw ApiProblem.badRequest("status", "must be open, acknowledged, invalid, fixed or wontfix");
    }
    if (request.note() != null && request.note().length() > 10_000) {
      throw ApiProblem.badRequest("note", "must be at most 10000 characters");
    }
    return queries.triage(id, request.status(), request.note(), who.getName())
        .orElseThrow(() -> ApiProblem.notFound("no regression " + id));
  }

  private static RegressionStatus parse(String s) {
    try {
      return RegressionStatus.of(s);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
