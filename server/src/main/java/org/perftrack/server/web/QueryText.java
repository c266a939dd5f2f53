package org.perftrack.server.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Every request parameter (query or form) is text before any handler reads it: percent-encoded bytes that are not
 * UTF-8 ({@code %ED%A0%80}, a surrogate; Tomcat drops such a parameter silently) and control characters ({@code %00},
 * which PostgreSQL refuses in text: a 500 before) answer 400 naming the parameter, as a page or a problem detail.
 */
@Configuration(proxyBeanMethods = false)
class QueryText implements WebMvcConfigurer, HandlerInterceptor {

  /** Set by Tomcat when it could not read the parameters (bad encoding, too many). */
  private static final String PARSE_FAILED = "org.apache.catalina.parameter_parse_failed";

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry.addInterceptor(this);
  }

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
    if (!(handler instanceof org.springframework.web.method.HandlerMethod)) {
      return true; // static files read no parameter; only a controller's advice makes the 400
    }
    String query = request.getQueryString();
    if (query != null) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        String name = decode(eq < 0 ? pair : pair.substring(0, eq), null);
        check(name, decode(eq < 0 ? "" : pair.substring(eq + 1), name));
      }
    }
    for (Map.Entry<String, String[]> p : request.getParameterMap().entrySet()) {
      for (String value : p.getValue()) {
        check(p.getKey(), value);
      }
    }
    if (request.getAttribute(PARSE_FAILED) != null) {
      throw new InvalidInput("parameters", "could not be read: each must be UTF-8 text, percent-encoded");
    }
    return true;
  }

  private static void check(String name, String value) {
    for (String s : new String[] {name, value}) {
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
          throw new InvalidInput(printable(name), "must not contain control characters (found U+"
              + String.format("%04X", (int) c) + " at " + i + ")");
        }
      }
    }
  }

  /** Percent-decoding into strict UTF-8; {@code +} is a space. */
  private static String decode(String encoded, String name) {
    ByteBuffer bytes = ByteBuffer.allocate(encoded.length());
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c == '%' && i + 2 < encoded.length() && hex(encoded.charAt(i + 1)) >= 0
          && hex(encoded.charAt(i + 2)) >= 0) {
        bytes.put((byte) (hex(encoded.charAt(i + 1)) * 16 + hex(encoded.charAt(i + 2))));
        i += 2;
      } else if (c > 0x7F) {
        return encoded; // not percent-encoded: Tomcat refuses such a request line itself
      } else {
        bytes.put((byte) (c == '+' ? ' ' : c));
      }
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes.flip()).toString();
    } catch (CharacterCodingException e) {
      throw new InvalidInput(name == null ? "parameters" : printable(name), "must be UTF-8 text, percent-encoded"
          + " (found bytes that are not UTF-8)");
    }
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }

  /** A parameter's name as a problem may quote it. */
  private static String printable(String name) {
    return name.codePoints().allMatch(c -> c >= 0x20 && c < 0x7F) && name.length() <= 64 ? name : "parameters";
  }
}
