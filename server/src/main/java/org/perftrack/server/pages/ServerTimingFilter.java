package org.perftrack.server.pages;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Adds {@code Server-Timing: app;dur=<ms>} to the pages an admin is shown, measured around security,
 * controller and template rendering: the browser's developer tools show it, and the page-latency benchmark
 * (signed in as admin) reports it. Others do not see it: timings help an attacker measure (issue 12).
 * Whether the caller is an admin is read from the session after the chain ran (the security context is
 * cleared by then).
 * The body is buffered so that the header can still be set after rendering (pages are small).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class ServerTimingFilter extends OncePerRequestFilter {

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    String uri = request.getRequestURI();
    return uri.startsWith("/api/") || uri.startsWith("/webjars/") || uri.startsWith("/css/") || uri.startsWith("/js/")
        || uri.startsWith("/img/") || uri.startsWith("/actuator/");
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    long start = System.nanoTime();
    ContentCachingResponseWrapper wrapper = new ContentCachingResponseWrapper(response);
    // on an exception nothing is copied: the half-rendered page is dropped and the error page renders instead
    chain.doFilter(request, wrapper);
    if (isAdmin(request)) {
      wrapper.setHeader("Server-Timing", String.format(Locale.ROOT, "app;dur=%.1f", (System.nanoTime() - start) / 1e6));
    }
    wrapper.copyBodyToResponse();
  }

  private static boolean isAdmin(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    Object context;
    try {
      context = session == null ? null
          : session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
    } catch (IllegalStateException invalidated) {
      return false;
    }
    Authentication auth = context instanceof SecurityContext c ? c.getAuthentication() : null;
    return auth != null && auth.isAuthenticated()
        && auth.getAuthorities().stream().anyMatch(a -> "ROLE_ADMIN".equals(a.getAuthority()));
  }
}
