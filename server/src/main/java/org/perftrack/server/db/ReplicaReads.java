package org.perftrack.server.db;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Marks the requests whose database work may read the replica: GET and HEAD of pages and read APIs. It runs after
 * the security filters, so token and session look-ups (and a token's last use, a write) go to the primary; a
 * request that is not marked (uploads, imports, triage, every other write, and all work outside requests: detection,
 * the mail outbox, the lab's clock) uses the primary. Admin and account pages read the primary too: someone who just
 * changed a setting sees it at once.
 */
final class ReplicaReads extends OncePerRequestFilter {

  private static final ThreadLocal<Boolean> ON_REPLICA = new ThreadLocal<>();
  private static final List<String> PRIMARY_PATHS = List.of("/actuator", "/admin", "/login", "/alerts", "/api/v1/lab");

  /** The current thread's database work may read the replica. */
  static boolean marked() {
    return Boolean.TRUE.equals(ON_REPLICA.get());
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (!readOnly(request)) {
      chain.doFilter(request, response);
      return;
    }
    ON_REPLICA.set(Boolean.TRUE);
    try {
      chain.doFilter(request, response);
    } finally {
      ON_REPLICA.remove();
    }
  }

  static boolean readOnly(HttpServletRequest request) {
    String method = request.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      return false;
    }
    String path = request.getRequestURI().substring(request.getContextPath().length());
    return PRIMARY_PATHS.stream().noneMatch(p -> path.equals(p) || path.startsWith(p + "/"));
  }
}
