package org.perftrack.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/** {@code Authorization: Bearer <token>} on the API: a valid token authenticates, a wrong one is a 401 at once. */
class BearerTokenFilter extends OncePerRequestFilter {

  static final String API_ROLE = "ROLE_API";

  private final ApiTokens tokens;
  private final ProblemAuthenticationEntryPoint entryPoint;

  BearerTokenFilter(ApiTokens tokens, ProblemAuthenticationEntryPoint entryPoint) {
    this.tokens = tokens;
    this.entryPoint = entryPoint;
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String header = request.getHeader("Authorization");
    if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      String token = header.substring(7).trim();
      Optional<String> name = token.isEmpty() || token.length() > 512 ? Optional.empty() : tokens.authenticate(token);
      if (name.isEmpty()) {
        entryPoint.write(response, "the API token is not valid (unknown or revoked)");
        return;
      }
      var auth = UsernamePasswordAuthenticationToken.authenticated(
          "token:" + name.get(), null, AuthorityUtils.createAuthorityList(API_ROLE));
      SecurityContextHolder.getContext().setAuthentication(auth);
    }
    chain.doFilter(request, response);
  }
}
