package org.perftrack.server.alerts;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The link in every mail. GET shows a confirmation button (mail scanners follow links; they must not
 * unsubscribe anyone); POST unsubscribes, also as RFC 8058 one-click from the mail client. No sign-in
 * and no CSRF token: the unguessable token in the link is the proof ({@link AlertsSecurityConfiguration}).
 */
@Controller
class UnsubscribePages {

  private final Subscriptions subscriptions;

  UnsubscribePages(Subscriptions subscriptions) {
    this.subscriptions = subscriptions;
  }

  @GetMapping("/alerts/unsubscribe")
  String confirm(@RequestParam(defaultValue = "") String token, Model model) {
    model.addAttribute("token", token);
    model.addAttribute("subscription", subscriptions.byToken(token).orElse(null));
    return "alerts/unsubscribe";
  }

  @PostMapping("/alerts/unsubscribe")
  String unsubscribe(@RequestParam(defaultValue = "") String token, Model model) {
    model.addAttribute("token", token);
    model.addAttribute("done", subscriptions.unsubscribe(token).orElse(""));
    return "alerts/unsubscribe";
  }
}
