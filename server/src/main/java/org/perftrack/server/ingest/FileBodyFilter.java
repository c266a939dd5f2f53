package org.perftrack.server.ingest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code curl --data-binary @bench.json} without {@code -H 'Content-Type: application/json'} labels a tool's
 * file as a form, and the servlet container would take it apart as form fields at the first
 * {@code getParameter()}. For {@code POST /api/v1/runs?format=…} the body is the file whatever its label, so
 * it is read first, as it is (after the size limit), and passed on as JSON.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class FileBodyFilter extends OncePerRequestFilter {

  private static final Pattern FORMAT_PARAM = Pattern.compile("(^|&)format=");

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    String type = request.getContentType();
    return !("POST".equals(request.getMethod()) && "/api/v1/runs".equals(request.getRequestURI())
        && type != null && type.startsWith(MediaType.APPLICATION_FORM_URLENCODED_VALUE)
        && request.getQueryString() != null && FORMAT_PARAM.matcher(request.getQueryString()).find());
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    byte[] body = request.getInputStream().readAllBytes();
    chain.doFilter(new FileRequest(request, body), response);
  }

  /** The request with its body kept as bytes and labelled JSON. */
  private static final class FileRequest extends HttpServletRequestWrapper {
    private final byte[] body;

    FileRequest(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public String getContentType() {
      return MediaType.APPLICATION_JSON_VALUE;
    }

    @Override
    public String getHeader(String name) {
      return HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name) ? getContentType() : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
      return HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)
          ? Collections.enumeration(List.of(getContentType())) : super.getHeaders(name);
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
          return in.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException("synchronous reads only");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }
  }
}
