package org.perftrack.server.security;

import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

@Controller
class LoginPages {

  @GetMapping("/login")
  String login() {
    return "security/login";
  }
}
