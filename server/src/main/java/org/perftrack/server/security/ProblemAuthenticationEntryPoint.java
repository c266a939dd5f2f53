package org.perftrack.server.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.authorization.AuthorityAuthorizationDecision;
import org.springframework.security.authorization.AuthorizationDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;

/** 401 as problem+json, with the header that tells a client which scheme to use. */
class ProblemAuthenticationEntryPoint implements AuthenticationEntryPoint {

  private final String needed;

  ProblemAuthenticationEntryPoint() {
    this("this request needs an API token: Authorization: Bearer <token>");
  }

  /** @param needed what the 401 says a request lacks */
  ProblemAuthenticationEntryPoint(String needed) {
    this.needed = needed;
  }

  @Override
  public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
      throws IOException {
    write(response, needed);
  }

  /**
   * 403: the token is valid, its scopes do not cover this request. Says which scope the request needs and which the
   * token has ("this request needs the triage scope (or admin); this token has upload, read; an admin chooses a
   * token's scopes when making it on /admin").
   */
  static void forbidden(HttpServletRequest request, HttpServletResponse response,
      org.springframework.security.access.AccessDeniedException e) throws IOException {
    response.setStatus(HttpStatus.FORBIDDEN.value());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Forbidden\",\"status\":403,\"detail\":\""
        + needs(e) + "this token has " + has() + "; an admin chooses a token's scopes when making it on /admin\"}");
  }

  /** "this request needs the triage scope (or admin); " from the rule that refused it, or nothing when unknown. */
  private static String needs(org.springframework.security.access.AccessDeniedException e) {
    if (!(e instanceof AuthorizationDeniedException denied)
        || !(denied.getAuthorizationResult() instanceof AuthorityAuthorizationDecision decision)) {
      return "";
    }
    List<String> scopes = decision.getAuthorities().stream().map(GrantedAuthority::getAuthority)
        .filter(a -> a != null && a.startsWith("SCOPE_")).map(a -> a.substring("SCOPE_".length()))
        .filter(a -> !a.equals(Scope.ADMIN.wire())).toList();
    return scopes.isEmpty() ? "this request needs the admin scope; "
        : "this request needs the " + String.join(" or ", scopes) + " scope (or admin); ";
  }

  /** The scopes of the token in use: "upload, read". */
  private static String has() {
    Authentication auth = SecurityContextHolder.getContext().getAuthentication();
    List<String> scopes = auth == null ? List.of() : Arrays.stream(Scope.values())
        .filter(s -> auth.getAuthorities().stream().anyMatch(a -> s.authority().equals(a.getAuthority())))
        .map(Scope::wire).toList();
    return scopes.isEmpty() ? "no scope" : String.join(", ", scopes);
  }

  void write(HttpServletResponse response, String detail) throws IOException {
    response.setStatus(HttpStatus.UNAUTHORIZED.value());
    response.setHeader("WWW-Authenticate", "Bearer realm=\"perftrack\"");
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":\""
        + detail + "\"}");
  }
}
