package org.perftrack.server.alerts;

import java.util.UUID;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The webhooks' part of {@code /alerts/subscriptions}: what the page lists (admins only) and its forms, posted to
 * {@code /admin/webhooks/…} (admins only, by the /admin/** rule; CSRF like every form): add one (its secret shown
 * on the next page, once), send a test, remove one.
 */
@Controller
class WebhooksPages {

  private static final String BACK = "redirect:/alerts/subscriptions#webhooks";
  /** Each kind as the form offers it. */
  static final java.util.Map<String, String> KINDS = java.util.Map.of("slack", "Slack or Mattermost",
      "teams", "Microsoft Teams (Workflows)", "matrix", "Matrix room", "json", "Signed JSON");

  private final Webhooks webhooks;
  private final WebhookQueue queue;
  private final OutboxSender sender;

  WebhooksPages(Webhooks webhooks, WebhookQueue queue, OutboxSender sender) {
    this.webhooks = webhooks;
    this.queue = queue;
    this.sender = sender;
  }

  /** What the subscriptions page shows of the webhooks to an admin: each with its last deliveries. */
  void addTo(Model model) {
    model.addAttribute("webhooks", webhooks.all().stream().map(w -> WebhooksApi.WebhookView.of(w,
        webhooks.deliveries(w.id(), 5), null)).toList());
    model.addAttribute("webhookKinds", KINDS);
    model.addAttribute("webhookEvents", Webhook.EVENTS);
    if (model.getAttribute("webhookForm") == null) {
      model.addAttribute("webhookForm", new WebhookRequest("", "slack", "", "", "", "", 0.0, Webhook.EVENTS));
    }
  }

  @PostMapping("/admin/webhooks")
  String create(@ModelAttribute("webhookForm") WebhookRequest form, BindingResult binding, Authentication auth,
      RedirectAttributes flash) {
    if (binding.hasErrors()) {
      flash.addFlashAttribute("webhookForm", form);
      flash.addFlashAttribute("webhookProblems", binding.getFieldErrors().stream()
          .map(e -> new InvalidInput.FieldProblem(e.getField(), "is not valid: " + e.getRejectedValue())).toList());
      return BACK;
    }
    try {
      Webhooks.Created made = webhooks.create(form, auth.getName());
      flash.addFlashAttribute("message", "Webhook added: " + made.webhook().kind() + " to " + made.webhook().site()
          + ".");
      if (made.secret() != null && made.webhook().kind().equals("json")) {
        flash.addFlashAttribute("webhookSecret", made.secret());
      }
    } catch (InvalidInput e) {
      flash.addFlashAttribute("webhookForm", form);
      flash.addFlashAttribute("webhookProblems", e.fields());
    }
    return BACK;
  }

  @PostMapping("/admin/webhooks/{id}/test")
  String test(@PathVariable long id, RedirectAttributes flash) {
    boolean queued = webhooks.find(id).map(w -> queue.test(w, UUID.randomUUID().toString())).orElse(false);
    sender.wake();
    flash.addFlashAttribute("message", queued ? "A test is on its way; its delivery shows below in a moment."
        : "No such webhook.");
    return BACK;
  }

  @PostMapping("/admin/webhooks/{id}/delete")
  String delete(@PathVariable long id, RedirectAttributes flash) {
    flash.addFlashAttribute("message", webhooks.remove(id) ? "Webhook removed." : "No such webhook.");
    return BACK;
  }
}
