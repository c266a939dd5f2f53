package org.perftrack.server.security;

import java.security.Principal;
import org.perftrack.server.audit.Audit;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** A signed-in user's own account: they change their password (an admin resets another's on the admin page). */
@Controller
class AccountPages {

  private final Users users;
  private final Audit audit;

  AccountPages(Users users, Audit audit) {
    this.users = users;
    this.audit = audit;
  }

  @GetMapping("/account")
  String account(Principal who, Model model) {
    model.addAttribute("username", who.getName());
    return "security/account";
  }

  @PostMapping("/account/password")
  String changePassword(@RequestParam(defaultValue = "") String current, @RequestParam(defaultValue = "") String password,
      @RequestParam(defaultValue = "") String repeat, Principal who, RedirectAttributes flash) {
    String problem = Users.passwordProblem(password).map(p -> "New " + p.substring(0, 1).toLowerCase() + p.substring(1))
        .orElse(password.equals(repeat) ? null : "Repeat the new password: the two entries differ.");
    if (problem == null) {
      problem = switch (users.changeOwn(who.getName(), current, password)) {
        case CHANGED -> null;
        case WRONG_CURRENT -> "Current password: that is not your password now; nothing was changed.";
        case NO_SUCH_USER -> "Your account is disabled or deleted; nothing was changed.";
      };
    }
    if (problem != null) {
      flash.addFlashAttribute("error", problem);
    } else {
      audit.record(who.getName(), "changed password", "user " + who.getName(), null);
      flash.addFlashAttribute("message", "Your password is changed: use the new one when you next sign in.");
    }
    return "redirect:/account";
  }
}
