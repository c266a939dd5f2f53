package org.perftrack.server.alerts;

import org.perftrack.server.problems.InvalidInput;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * {@code /alerts/subscriptions}: signed-in people manage their mail subscriptions (admins see everyone's).
 * The forms carry Spring Security's CSRF token.
 */
@Controller
class SubscriptionsPages {

  private final Subscriptions subscriptions;
  private final AlertsProperties props;
  private final WebhooksPages webhooks;

  SubscriptionsPages(Subscriptions subscriptions, AlertsProperties props, WebhooksPages webhooks) {
    this.subscriptions = subscriptions;
    this.props = props;
    this.webhooks = webhooks;
  }

  @GetMapping("/alerts/subscriptions")
  String page(Authentication auth, Model model) {
    if (!signedIn(auth)) {
      return "redirect:/login";
    }
    if (model.getAttribute("form") == null) {
      model.addAttribute("form", new SubscriptionRequest("", "", "", "", 0.0, Subscription.IMMEDIATE));
    }
    boolean admin = isAdmin(auth);
    model.addAttribute("admin", admin);
    model.addAttribute("subscriptions", subscriptions.list(admin ? null : auth.getName()));
    model.addAttribute("enabled", props.enabled());
    if (admin) {
      webhooks.addTo(model);
    }
    return "alerts/subscriptions";
  }

  @PostMapping("/alerts/subscriptions")
  String create(@ModelAttribute("form") SubscriptionRequest form, BindingResult binding, Authentication auth, Model model,
      RedirectAttributes flash) {
    if (binding.hasErrors()) {
      model.addAttribute("problems", binding.getFieldErrors().stream()
          .map(e -> new InvalidInput.FieldProblem(e.getField(), "is not valid: " + e.getRejectedValue())).toList());
      return page(auth, model);
    }
    try {
      subscriptions.create(form, auth.getName());
    } catch (InvalidInput e) {
      model.addAttribute("form", form);
      model.addAttribute("problems", e.fields());
      return page(auth, model);
    }
    flash.addFlashAttribute("message", "Subscribed " + form.email().trim() + ".");
    return "redirect:/alerts/subscriptions";
  }

  @PostMapping("/alerts/subscriptions/{id}/delete")
  String delete(@PathVariable long id, Authentication auth, RedirectAttributes flash) {
    boolean removed = subscriptions.remove(id, isAdmin(auth) ? null : auth.getName());
    flash.addFlashAttribute("message", removed ? "Subscription removed." : "No such subscription of yours.");
    return "redirect:/alerts/subscriptions";
  }

  static boolean signedIn(Authentication auth) {
    return auth != null && auth.isAuthenticated() && !(auth instanceof AnonymousAuthenticationToken);
  }

  private static boolean isAdmin(Authentication auth) {
    return auth.getAuthorities().stream().anyMatch(a -> "ROLE_ADMIN".equals(a.getAuthority()));
  }
}
