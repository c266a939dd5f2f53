package org.perftrack.server.audit;

import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The audit log's page {@code /admin/audit} (admins only); the JSON is AuditApi. */
@Controller
class AuditPages {

  static final int PAGE = 200;

  private final Audit audit;

  AuditPages(Audit audit) {
    this.audit = audit;
  }

  @GetMapping("/admin/audit")
  String page(@RequestParam(required = false) String actor, @RequestParam(required = false) Long before,
      Model model) {
    List<Audit.Event> events = audit.list(Audit.blankToNull(actor), null, before, PAGE);
    model.addAttribute("events", events);
    model.addAttribute("actor", actor);
    model.addAttribute("older", events.size() == PAGE ? events.get(events.size() - 1).id() : null);
    return "audit/audit";
  }
}
