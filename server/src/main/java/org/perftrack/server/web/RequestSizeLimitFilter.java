package org.perftrack.server.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.perftrack.wire.Quantities;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps API request bodies ({@code perftrack.limits.max-body-bytes}, 16 MiB by default; a bulk import
 * {@code perftrack.limits.max-import-bytes}): a declared
 * length over the cap is refused before reading, a chunked body when it crosses the cap.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class RequestSizeLimitFilter extends OncePerRequestFilter {

  private final LimitsProperties limits;

  RequestSizeLimitFilter(LimitsProperties limits) {
    this.limits = limits;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !request.getRequestURI().startsWith("/api/");
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    long limit = limits.bodyLimit(request.getRequestURI());
    if (request.getContentLengthLong() > limit) {
      response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
          + "\"detail\":\"the request body is larger than the limit of " + Quantities.count(limit) + " bytes\"}");
      return;
    }
    chain.doFilter(new LimitedRequest(request, limit), response);
  }

  private static final class LimitedRequest extends HttpServletRequestWrapper {
    private final long limit;
    private ServletInputStream stream;

    LimitedRequest(HttpServletRequest request, long limit) {
      super(request);
      this.limit = limit;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
      if (stream == null) {
        stream = new LimitedStream(super.getInputStream(), limit);
      }
      return stream;
    }
  }

  /** The servlet's stream, counted by {@link BoundedInputStream}. */
  private static final class LimitedStream extends ServletInputStream {
    private final ServletInputStream in;
    private final BoundedInputStream counted;

    LimitedStream(ServletInputStream in, long limit) {
      this.in = in;
      this.counted = new BoundedInputStream(in, limit);
    }

    @Override
    public int read() throws IOException {
      return counted.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return counted.read(b, off, len);
    }

    @Override
    public boolean isFinished() {
      return in.isFinished();
    }

    @Override
    public boolean isReady() {
      return in.isReady();
    }

    @Override
    public void setReadListener(ReadListener listener) {
      in.setReadListener(listener);
    }
  }
}
