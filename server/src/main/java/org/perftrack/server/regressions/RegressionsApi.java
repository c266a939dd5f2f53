package org.perftrack.server.regressions;

import java.util.Arrays;
import java.util.List;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.wire.Quantities;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * {@code GET /api/v1/regressions}, {@code GET} and {@code PATCH /api/v1/regressions/{id}}. The list
 * shows regressions (not improvements, unless {@code kind=improvement}) that are not withdrawn, unless
 * a {@code status} (comma-separated, or {@code all} for every status) asks for others.
 */
@RestController
@RequestMapping("/api/v1/regressions")
class RegressionsApi {

  static final int MAX_LIMIT = 5000;

  record TriageRequest(String status, String note) {}

  private final Regressions regressions;

  RegressionsApi(Regressions regressions) {
    this.regressions = regressions;
  }

  @GetMapping
  @io.swagger.v3.oas.annotations.Operation(description = "Newest first (by detection time, then id), at most "
      + "`limit` of them. When more match, the answer carries a `Link` header with `rel=\"next\"`: the same list "
      + "with `before` set to the last one's id, which answers the next (older) page. Paging this way is stable "
      + "while new regressions are detected.")
  ResponseEntity<List<Regression>> list(@RequestParam(required = false) String product,
      @RequestParam(required = false) String machine, @RequestParam(required = false) String version,
      @RequestParam(required = false) String status,
      @RequestParam(defaultValue = "regression") String kind,
      @io.swagger.v3.oas.annotations.Parameter(description = "The most regressions answered (1 to 5000).")
      @RequestParam(defaultValue = "500") int limit,
      @io.swagger.v3.oas.annotations.Parameter(description = "Answer only regressions older than this one (its "
          + "`id`): the next page after a page whose last regression it is.")
      @RequestParam(required = false) String before) {
    List<Regression.Status> statuses = statuses(status);
    Regression.Kind k = parse(() -> Regression.Kind.of(kind), "kind");
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInput("limit", "must be between 1 and " + Quantities.count(MAX_LIMIT));
    }
    // an empty filter (product=) is no filter, as on the page and the other lists
    Regressions.Criteria criteria = new Regressions.Criteria(blankToNull(product), blankToNull(machine),
        blankToNull(version), statuses, k);
    Regressions.Slice slice = before == null ? regressions.page(criteria, Regressions.From.START, 0, null, limit)
        : regressions.page(criteria, Regressions.From.BEFORE, RegressionPages.cursor("before", before), "before", limit);
    ResponseEntity.BodyBuilder ok = ResponseEntity.ok();
    if (slice.older()) {
      String next = ServletUriComponentsBuilder.fromCurrentRequest().replaceQueryParam("before",
          slice.rows().get(slice.rows().size() - 1).id()).build().toUriString();
      ok.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
    }
    return ok.body(slice.rows());
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  @GetMapping("/{id}")
  Regression one(@PathVariable long id) {
    return regressions.find(id).orElseThrow(() -> new NotFound("no regression " + id));
  }

  @PatchMapping("/{id}")
  Regression triage(@PathVariable long id, @RequestBody TriageRequest request, Authentication who) {
    if (request.status() == null && request.note() == null) {
      throw new InvalidInput("status", "give a status or a note");
    }
    Regression.Status status = request.status() == null ? null : triageStatus(request.status());
    if (request.note() != null && request.note().length() > 10_000) {
      throw new InvalidInput("note", "must be at most " + Quantities.count(10_000) + " characters");
    }
    return regressions.triage(id, status, request.note(), who.getName())
        .orElseThrow(() -> new NotFound("no regression " + id));
  }

  private static List<Regression.Status> statuses(String status) {
    if (status == null || status.isBlank()) {
      return Regression.Status.VISIBLE;
    }
    if (status.strip().equals("all")) {
      return List.of(Regression.Status.values());
    }
    return Arrays.stream(status.split(",")).map(s -> {
      try {
        return Regression.Status.of(s);
      } catch (IllegalArgumentException e) {
        throw new InvalidInput("status", "must be one of " + wires(List.of(Regression.Status.values()))
            + " (comma-separated) or all, got: " + s);
      }
    }).toList();
  }

  /** A status triage may set ("fixed"), or a 400 that lists those and says what came. */
  private static Regression.Status triageStatus(String wire) {
    Regression.Status status;
    try {
      status = Regression.Status.of(wire);
    } catch (IllegalArgumentException e) {
      status = null;
    }
    if (status == null || !Regression.Status.TRIAGE.contains(status)) {
      throw new InvalidInput("status", "must be one of " + wires(Regression.Status.TRIAGE) + ", got: " + wire);
    }
    return status;
  }

  private static <T> T parse(java.util.function.Supplier<T> parser, String field) {
    try {
      return parser.get();
    } catch (IllegalArgumentException e) {
      throw new InvalidInput(field, e.getMessage());
    }
  }

  static String wires(List<Regression.Status> statuses) {
    return String.join(", ", statuses.stream().map(Regression.Status::wire).toList());
  }
}
