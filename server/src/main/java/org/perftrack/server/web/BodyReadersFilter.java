package org.perftrack.server.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import org.perftrack.wire.Quantities;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the requests with a body that are in progress at once, in all and per client address, before any
 * body byte is read. A request body is read by a worker thread that blocks until the bytes arrive, so a
 * client sending a byte at a time holds a worker for as long as it likes; without this bound 210 such
 * clients took all 200 workers and {@code /actuator/health} did not answer for a minute (issue 12). Requests
 * without a body (pages, health, the read API) are never counted, and bodies beyond the bounds get 503 with
 * {@code Retry-After} at once, without reading. The refusal completes asynchronously: Tomcat then closes the
 * connection without draining the unread body (a synchronous answer is followed by a blocking drain of up
 * to {@code server.tomcat.max-swallow-size}, which a slow client stretches as long as it likes). Bodies also
 * reserve the heap they take while parsed ({@code perftrack.limits.body-memory}, half of the heap by default), so
 * that many large bodies at once are answered 503 rather than an OutOfMemoryError.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class BodyReadersFilter extends OncePerRequestFilter {

  private final int perAddress;
  private final int inAll;
  private final Semaphore permits;
  private final ConcurrentMap<String, Integer> byAddress = new ConcurrentHashMap<>();
  private final LimitsProperties limits;
  /** The heap budget of the bodies being read, in KiB. */
  private final Semaphore heap;

  BodyReadersFilter(LimitsProperties limits) {
    this.limits = limits;
    this.perAddress = limits.maxBodiesPerAddress();
    this.inAll = limits.maxBodies();
    this.permits = new Semaphore(inAll);
    this.heap = new Semaphore(kib(limits.bodyMemoryBytes()));
  }

  private static int kib(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes / 1024));
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (!hasBody(request)) {
      chain.doFilter(request, response);
      return;
    }
    String address = request.getRemoteAddr();
    if (!enter(address)) {
      refuse(request, response, "too many requests with a body at once from " + address + " (at most "
          + Quantities.count(perAddress) + "); nothing was read, send again later");
      return;
    }
    try {
      if (!permits.tryAcquire()) {
        refuse(request, response, "the server is reading as many request bodies as it will at once (" + inAll
            + "); nothing was read, send again later");
        return;
      }
      int reserved = kib(limits.heapOf(request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null ? -1
          : request.getContentLengthLong()));
      try {
        if (!heap.tryAcquire(reserved)) {
          refuse(request, response, "the request bodies being read take as much of the server's memory as they may"
              + " (perftrack.limits.body-memory); nothing was read, send again later");
          return;
        }
        try {
          chain.doFilter(request, response);
        } finally {
          heap.release(reserved);
        }
      } finally {
        permits.release();
      }
    } finally {
      byAddress.computeIfPresent(address, (a, n) -> n == 1 ? null : n - 1);
    }
  }

  private boolean enter(String address) {
    boolean[] entered = {false};
    byAddress.compute(address, (a, n) -> {
      int now = n == null ? 0 : n;
      if (now >= perAddress) {
        return n;
      }
      entered[0] = true;
      return now + 1;
    });
    return entered[0];
  }

  private static boolean hasBody(HttpServletRequest request) {
    return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
  }

  private static void refuse(HttpServletRequest request, HttpServletResponse response, String detail)
      throws IOException {
    AsyncContext async = request.isAsyncSupported() ? request.startAsync() : null;
    while (response instanceof HttpServletResponseWrapper wrapper) {
      response = (HttpServletResponse) wrapper.getResponse(); // answered now, not by a filter that buffers
    }
    response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
    response.setHeader(HttpHeaders.RETRY_AFTER, "5");
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.getWriter().write(String.format(Locale.ROOT,
        "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,\"detail\":\"%s\"}",
        detail.replace("\\", "\\\\").replace("\"", "\\\"")));
    response.flushBuffer();
    if (async != null) {
      async.complete();
    }
  }
}
