package org.perftrack.server.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/** Tells the layout which section a page belongs to, so the navigation can mark it (aria-current). */
@ControllerAdvice(annotations = Controller.class)
class NavigationAdvice {

  @ModelAttribute("section")
  String section(HttpServletRequest request) {
    String uri = request.getRequestURI();
    if (uri.startsWith("/regressions")) {
      return "regressions";
    }
    if (uri.startsWith("/compare")) {
      return "compare";
    }
    if (uri.startsWith("/admin")) {
      return "admin";
    }
    return uri.equals("/") ? "home" : "";
  }
}
