package org.perftrack.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code Authorization: Bearer <token>} on the API (or {@code ?token=} on a feed, whose readers send no header): a
 * valid token authenticates with its scopes as authorities ({@code SCOPE_upload} …), a wrong one is a 401 at once.
 */
class BearerTokenFilter extends OncePerRequestFilter {

  static final String API_ROLE = "ROLE_API";

  private final ApiTokens tokens;
  private final ProblemAuthenticationEntryPoint entryPoint;
  private final Function<HttpServletRequest, String> token;

  BearerTokenFilter(ApiTokens tokens, ProblemAuthenticationEntryPoint entryPoint) {
    this(tokens, entryPoint, BearerTokenFilter::fromHeader);
  }

  private BearerTokenFilter(ApiTokens tokens, ProblemAuthenticationEntryPoint entryPoint,
      Function<HttpServletRequest, String> token) {
    this.tokens = tokens;
    this.entryPoint = entryPoint;
    this.token = token;
  }

  /** The token of a feed's address, {@code ?token=}: a feed reader cannot send a header. */
  static BearerTokenFilter inQuery(ApiTokens tokens, ProblemAuthenticationEntryPoint entryPoint) {
    return new BearerTokenFilter(tokens, entryPoint, r -> r.getParameter("token"));
  }

  private static String fromHeader(HttpServletRequest request) {
    String header = request.getHeader("Authorization");
    return header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7) : null;
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String sent = this.token.apply(request);
    if (sent != null) {
      String token = sent.trim();
      Optional<ApiTokens.Valid> valid =
          token.isEmpty() || token.length() > 512 ? Optional.empty() : tokens.authenticate(token);
      if (valid.isEmpty()) {
        entryPoint.write(response, "the API token is not valid (unknown or revoked)");
        return;
      }
      List<String> authorities = new ArrayList<>(List.of(API_ROLE));
      valid.get().scopes().forEach(s -> authorities.add(s.authority()));
      var auth = UsernamePasswordAuthenticationToken.authenticated(
          new TokenPrincipal(valid.get().id(), valid.get().name()), null, AuthorityUtils.createAuthorityList(authorities));
      SecurityContextHolder.getContext().setAuthentication(auth);
    }
    chain.doFilter(request, response);
  }
}
