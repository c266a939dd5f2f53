package org.perftrack.server.pages;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import org.perftrack.server.db.ReplicaLag;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

/**
 * Tells the layout which section a page belongs to, so the navigation can mark it (aria-current), where "Sign in"
 * returns to, and whether the page's data comes from a replica that is behind.
 */
@ControllerAdvice(annotations = Controller.class)
class NavigationAdvice {

  private final ObjectProvider<ReplicaLag> replica;

  NavigationAdvice(ObjectProvider<ReplicaLag> replica) {
    this.replica = replica;
  }

  /** "12 s" or "3 min" when the page was read from a replica that far behind the primary; else absent. */
  @ModelAttribute("replicaBehind")
  String replicaBehind() {
    ReplicaLag lag = replica.getIfAvailable();
    return lag == null ? null : lag.shownBehind().map(NavigationAdvice::amount).orElse(null);
  }

  static String amount(Duration d) {
    long s = d.toSeconds();
    return s < 120 ? s + " s" : s < 7200 ? s / 60 + " min" : s / 3600 + " h";
  }

  /** The page's path and query, for the "Sign in" link to return to; null on the sign-in page and for a form's POST. */
  @ModelAttribute("here")
  String here(HttpServletRequest request) {
    String uri = request.getRequestURI();
    if (!"GET".equals(request.getMethod()) || uri.equals("/login")) {
      return null;
    }
    return request.getQueryString() == null ? uri : uri + "?" + request.getQueryString();
  }

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
    if (uri.startsWith("/account")) {
      return "account";
    }
    if (uri.startsWith("/annotations")) {
      return "annotations";
    }
    return uri.equals("/") ? "home" : "";
  }
}
