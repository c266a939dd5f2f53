package org.perftrack.server.security;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

@Controller
class LoginPages {

  /** The form; {@code next}, when a local path, is where a successful sign-in returns ({@link SignInReturn}). */
  @GetMapping("/login")
  String login(@RequestParam(name = SignInReturn.PARAMETER, required = false) String next, Model model) {
    model.addAttribute("next", SignInReturn.localPath(next).orElse(null));
    return "security/login";
  }
}
