package org.perftrack.server.alerts;

import java.util.Set;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** {@code /admin/outbox} (admins only, by the /admin/** rule): what mail is waiting, went out, or failed and why. */
@Controller
class OutboxPages {

  private static final Set<String> STATUSES = Set.of("pending", "sending", "sent", "failed");

  private final Outbox outbox;
  private final OutboxSender sender;
  private final AlertsHealthIndicator health;

  OutboxPages(Outbox outbox, OutboxSender sender, AlertsHealthIndicator health) {
    this.outbox = outbox;
    this.sender = sender;
    this.health = health;
  }

  @GetMapping("/admin/outbox")
  String page(@RequestParam(required = false) String status, Model model) {
    String filter = status != null && STATUSES.contains(status) ? status : null;
    model.addAttribute("status", filter);
    model.addAttribute("health", health.health().getDetails());
    model.addAttribute("entries", outbox.recent(filter, 200));
    return "alerts/outbox";
  }

  @PostMapping("/admin/outbox/retry")
  String retry(RedirectAttributes flash) {
    int n = outbox.retryFailed();
    sender.wake();
    flash.addFlashAttribute("message", n + " failed mail" + (n == 1 ? "" : "s") + " queued again.");
    return "redirect:/admin/outbox";
  }
}
