package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Parameter;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Every endpoint the server maps (API and pages), every text parameter of it (path and query), each of: a NUL
 * ({@code %00}), percent-encoded bytes that are not UTF-8 ({@code %ED%A0%80}, a surrogate) and the characters names
 * refuse ({@code / \ ; %}, {@code .}, {@code ..}): each answers 4xx or a success, never a 5xx.
 */
class HostileParametersSweepTest extends IntegrationTest {

  private static final List<String> HOSTILE = List.of("%00", "a%00b", "%ED%A0%80", "a%2Fb", "a%5Cb", "a%3Bb", "a%25b",
      ".", "..");
  private static final Pattern PATH_VARIABLE = Pattern.compile("\\{\\*?(\\w+)(:[^}]*)?}");

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mapping;

  @Test
  void everyTextParameterOfEveryEndpointAnswersHostileTextWithoutA5xx() {
    List<String> failures = new ArrayList<>();
    int requests = 0;
    for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mapping.getHandlerMethods().entrySet()) {
      RequestMappingInfo info = e.getKey();
      Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
      String method = methods.isEmpty() ? "GET" : methods.iterator().next().name();
      for (String pattern : info.getPatternValues()) {
        if (pattern.equals("/error")) {
          continue;
        }
        Map<String, Class<?>> texts = new LinkedHashMap<>();
        Map<String, String> query = new LinkedHashMap<>();
        info.getParamsCondition().getExpressions().stream().filter(x -> !x.isNegated())
            .forEach(x -> query.put(x.getName(), x.getValue() == null ? "x" : x.getValue()));
        for (Parameter p : e.getValue().getMethod().getParameters()) {
          RequestParam rp = p.getAnnotation(RequestParam.class);
          if (rp != null && !Map.class.isAssignableFrom(p.getType())) {
            String name = rp.name().isEmpty() ? rp.value().isEmpty() ? p.getName() : rp.value() : rp.name();
            query.putIfAbsent(name, plausible(p.getType()));
            if (p.getType() == String.class) {
              texts.put("?" + name, String.class);
            }
          }
          PathVariable pv = p.getAnnotation(PathVariable.class);
          if (pv != null && p.getType() == String.class) {
            texts.put(pv.name().isEmpty() ? pv.value().isEmpty() ? p.getName() : pv.value() : pv.name(), String.class);
          }
        }
        for (String text : texts.keySet()) {
          for (String hostile : HOSTILE) {
            String path = path(pattern, text, hostile) + query(query, text, hostile);
            String answer = send(method, path);
            requests++;
            if (!answer.matches("[1-4]\\d\\d")) {
              failures.add(method + " " + path + " -> " + answer);
            }
          }
        }
      }
    }
    assertThat(requests).as("the sweep reached the endpoints").isGreaterThan(300);
    assertThat(failures).as(failures.size() + " of " + requests + " requests").isEmpty();
  }

  private static String path(String pattern, String text, String hostile) {
    Matcher m = PATH_VARIABLE.matcher(pattern);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(1).equals(text) ? hostile
          : m.group(1).toLowerCase().endsWith("id") ? "999999999" : "x"));
    }
    return m.appendTail(out).toString();
  }

  private static String query(Map<String, String> query, String text, String hostile) {
    StringBuilder out = new StringBuilder();
    query.forEach((name, value) -> out.append(out.length() == 0 ? "?" : "&").append(name).append('=')
        .append(text.equals("?" + name) ? hostile : value));
    return out.toString();
  }

  private static String plausible(Class<?> type) {
    return type == String.class ? "x" : type == boolean.class || type == Boolean.class ? "true" : "1";
  }

  /** The status, or what went wrong: a connection the server closed without an answer counts against it. */
  private String send(String method, String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Authorization", "Bearer " + ADMIN_TOKEN).header("Content-Type", "application/json");
    b.method(method, method.equals("GET") || method.equals("DELETE") || method.equals("HEAD")
        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}"));
    try {
      return Integer.toString(http().send(b).status());
    } catch (java.io.UncheckedIOException first) {
      try { // a kept-alive connection the server had just closed: once more, on a new one
        return Integer.toString(http().send(b).status());
      } catch (java.io.UncheckedIOException again) {
        return again.getCause().toString();
      }
    }
  }
}
