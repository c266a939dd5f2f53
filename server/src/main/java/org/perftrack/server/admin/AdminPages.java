package org.perftrack.server.admin;

import java.security.Principal;
import java.util.Set;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.security.ApiTokens;
import org.perftrack.server.security.Scope;
import org.perftrack.server.security.Users;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * API tokens and users (admins only, by the security configuration's {@code /admin/**} rule).
 * A new token travels to the page once as a flash attribute and is never stored in clear.
 */
@Controller
class AdminPages {

  private static final Set<String> ROLES = Set.of("USER", "ADMIN");

  private final ApiTokens tokens;
  private final Users users;
  private final Audit audit;

  AdminPages(ApiTokens tokens, Users users, Audit audit) {
    this.tokens = tokens;
    this.users = users;
    this.audit = audit;
  }

  @GetMapping("/admin")
  String admin(Model model) {
    model.addAttribute("tokens", tokens.list());
    model.addAttribute("users", users.list());
    return "admin/admin";
  }

  @PostMapping("/admin/tokens")
  String createToken(@RequestParam(defaultValue = "") String name,
      @RequestParam(name = "scope", required = false) java.util.List<String> scope, Principal who, RedirectAttributes flash) {
    String trimmed = name.strip();
    var scopes = java.util.EnumSet.noneOf(Scope.class);
    boolean known = scope != null && scope.stream().allMatch(s -> Scope.parse(s).map(scopes::add).isPresent());
    if (trimmed.isEmpty() || trimmed.length() > 100) {
      flash.addFlashAttribute("error", "Token name: give a name of 1 to 100 characters (e.g. the machine or CI job).");
    } else if (!known || scopes.isEmpty()) {
      flash.addFlashAttribute("error", "Token scopes: choose at least one of upload, read, triage, admin.");
    } else {
      flash.addFlashAttribute("newToken", tokens.create(trimmed, who.getName(), scopes));
      audit.record(who.getName(), "created token", "token " + trimmed, "scopes " + scopes.stream().map(Scope::wire).sorted().toList());
    }
    return "redirect:/admin";
  }

  @PostMapping("/admin/tokens/{id}/revoke")
  String revoke(@PathVariable long id, Principal who, RedirectAttributes flash) {
    boolean done = tokens.revoke(id);
    if (done) {
      audit.record(who.getName(), "revoked token", "token " + id, null);
    }
    flash.addFlashAttribute(done ? "message" : "error",
        done ? "Token " + id + " revoked." : "Token " + id + " was already revoked or does not exist.");
    return "redirect:/admin";
  }

  @PostMapping("/admin/users")
  String createUser(@RequestParam(defaultValue = "") String username, @RequestParam(defaultValue = "") String password,
      @RequestParam(defaultValue = "USER") String role, Principal who, RedirectAttributes flash) {
    String name = username.strip();
    String problem = userProblem(name, password, role);
    if (problem != null) {
      flash.addFlashAttribute("error", problem);
    } else {
      users.save(name, password, role);
      audit.record(who.getName(), "created user", "user " + name, "role " + role);
      flash.addFlashAttribute("message", "User " + name + " created.");
    }
    return "redirect:/admin";
  }

  @PostMapping("/admin/users/disable")
  String disable(@RequestParam String username, Principal who, RedirectAttributes flash) {
    boolean done = users.disable(username);
    if (done) {
      audit.record(who.getName(), "disabled user", "user " + username, null);
    }
    flash.addFlashAttribute(done ? "message" : "error",
        done ? "User " + username + " disabled." : "User " + username + " cannot be disabled.");
    return "redirect:/admin";
  }

  /** An admin sets another user's password (who forgot theirs); the user changes it on their account page. */
  @PostMapping("/admin/users/password")
  String resetPassword(@RequestParam(defaultValue = "") String username, @RequestParam(defaultValue = "") String password,
      Principal who, RedirectAttributes flash) {
    var problem = Users.passwordProblem(password);
    if (problem.isPresent()) {
      flash.addFlashAttribute("error", problem.get());
    } else if (!users.reset(username, password)) {
      flash.addFlashAttribute("error", "User: there is no user " + username + ".");
    } else {
      audit.record(who.getName(), "reset password", "user " + username, null);
      flash.addFlashAttribute("message", "Password of " + username + " reset: tell them the new one, and that they"
          + " can change it on their account page.");
    }
    return "redirect:/admin";
  }

  /** Who the audit log names for what the server does by itself (a purge, a branch prune). */
  private static final String SYSTEM_ACTOR = "perftrack";

  private String userProblem(String name, String password, String role) {
    if (!name.matches("[A-Za-z0-9._@-]{1,64}")) {
      return "User name: 1 to 64 letters, digits or . _ @ -";
    }
    if (name.equalsIgnoreCase(SYSTEM_ACTOR)) {
      return "User name: " + SYSTEM_ACTOR + " is the name the audit log gives the server's own actions.";
    }
    if (users.exists(name)) {
      return "User name: " + name + " exists already.";
    }
    String weak = Users.passwordProblem(password).orElse(null);
    if (weak != null) {
      return weak;
    }
    if (!ROLES.contains(role)) {
      return "Role: USER or ADMIN.";
    }
    return null;
  }
}
