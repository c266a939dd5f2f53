package org.perftrack.server.audit;

import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.wire.Quantities;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The audit log as JSON: {@code GET /api/v1/audit} (admins only); its page is AuditPages. */
@RestController
class AuditApi {

  private final Audit audit;

  AuditApi(Audit audit) {
    this.audit = audit;
  }

  @GetMapping("/api/v1/audit")
  List<Audit.Event> api(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
      @RequestParam(required = false) Long before, @RequestParam(defaultValue = "200") int limit) {
    if (limit < 1 || limit > Audit.MAX_LIMIT) {
      throw new InvalidInput("limit", "must be between 1 and " + Quantities.count(Audit.MAX_LIMIT));
    }
    return audit.list(Audit.blankToNull(actor), Audit.blankToNull(action), before, limit);
  }
}
