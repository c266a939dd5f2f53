package org.perftrack.server.ingest;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * {@code getParameter()}. For {@code POST /api/v1/runs?format=…} the body is the file whatever its label: the
 * request is relabelled JSON and its parameters come from the query string only, so nothing reads the body
 * before the token is checked (an anonymous body is never read), and this filter holds no copy of it.
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
    chain.doFilter(new FileRequest(request), response);
  }

  /** The request labelled JSON, with the query string as its only parameters. */
  private static final class FileRequest extends HttpServletRequestWrapper {
    private final Map<String, String[]> query;

    FileRequest(HttpServletRequest request) {
      super(request);
      this.query = parse(request.getQueryString());
    }

    private static Map<String, String[]> parse(String queryString) {
      Map<String, List<String>> values = new LinkedHashMap<>();
      for (String pair : queryString.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        values.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
      }
      Map<String, String[]> result = new LinkedHashMap<>();
      values.forEach((k, v) -> result.put(k, v.toArray(String[]::new)));
      return Collections.unmodifiableMap(result);
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
    public String getParameter(String name) {
      String[] v = query.get(name);
      return v == null ? null : v[0];
    }

    @Override
    public Map<String, String[]> getParameterMap() {
      return query;
    }

    @Override
    public Enumeration<String> getParameterNames() {
      return Collections.enumeration(query.keySet());
    }

    @Override
    public String[] getParameterValues(String name) {
      return query.get(name);
    }
  }
}
