package org.perftrack.server.audit;

import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.wire.Quantities;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/** The audit log: {@code GET /api/v1/audit} and the page {@code /admin/audit} (both for admins only). */
@Controller
class AuditController {

  static final int PAGE = 200;

  private final Audit audit;

  AuditController(Audit audit) {
    this.audit = audit;
  }

  @GetMapping("/api/v1/audit")
  @ResponseBody
  List<Audit.Event> api(@RequestParam(required = false) String actor, @RequestParam(required = false) String action,
      @RequestParam(required = false) Long before, @RequestParam(defaultValue = "200") int limit) {
    if (limit < 1 || limit > Audit.MAX_LIMIT) {
      throw new InvalidInput("limit", "must be between 1 and " + Quantities.count(Audit.MAX_LIMIT));
    }
    return audit.list(blankToNull(actor), blankToNull(action), before, limit);
  }

  @GetMapping("/admin/audit")
  String page(@RequestParam(required = false) String actor, @RequestParam(required = false) Long before,
      Model model) {
    List<Audit.Event> events = audit.list(blankToNull(actor), null, before, PAGE);
    model.addAttribute("events", events);
    model.addAttribute("actor", actor);
    model.addAttribute("older", events.size() == PAGE ? events.get(events.size() - 1).id() : null);
    return "audit/audit";
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
