package org.perftrack.server.dashboard;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Adds {@code Server-Timing: app;dur=<ms>} to every page, measured around security, controller and
 * template rendering: the browser's developer tools show it, and the page-latency benchmark reports it.
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
    wrapper.setHeader("Server-Timing", String.format(Locale.ROOT, "app;dur=%.1f", (System.nanoTime() - start) / 1e6));
    wrapper.copyBodyToResponse();
  }
}
