package org.perftrack.server.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;

/** 401 as problem+json, with the header that tells a client which scheme to use. */
class ProblemAuthenticationEntryPoint implements AuthenticationEntryPoint {

  @Override
  public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
      throws IOException {
    write(response, "this request needs an API token: Authorization: Bearer <token>");
  }

  /** 403: the token is valid, its scopes do not cover this request. */
  static void forbidden(HttpServletRequest request, HttpServletResponse response,
      org.springframework.security.access.AccessDeniedException e) throws IOException {
    response.setStatus(HttpStatus.FORBIDDEN.value());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Forbidden\",\"status\":403,\"detail\":\""
        + "this token's scopes do not allow this request (scopes: upload, read, triage, admin; an admin chooses them)\"}");
  }

  void write(HttpServletResponse response, String detail) throws IOException {
    response.setStatus(HttpStatus.UNAUTHORIZED.value());
    response.setHeader("WWW-Authenticate", "Bearer realm=\"perftrack\"");
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":\""
        + detail + "\"}");
  }
}
