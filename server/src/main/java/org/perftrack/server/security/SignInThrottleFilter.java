package org.perftrack.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.web.filter.OncePerRequestFilter;

/** {@code POST /login} while {@link SignInThrottle} says wait: 429 with {@code Retry-After}, the password unread. */
class SignInThrottleFilter extends OncePerRequestFilter {

  private final SignInThrottle throttle;

  SignInThrottleFilter(SignInThrottle throttle) {
    this.throttle = throttle;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !("POST".equals(request.getMethod()) && "/login".equals(request.getServletPath()));
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Optional<Duration> wait = throttle.wait(request.getParameter("username"), request.getRemoteAddr());
    if (wait.isPresent()) {
      response.setHeader("Retry-After", Long.toString(Math.max(1, wait.get().toSeconds())));
      response.sendError(HttpStatus.TOO_MANY_REQUESTS.value(), "too many failed sign-ins; try again later");
      return;
    }
    chain.doFilter(request, response);
  }

  AuthenticationFailureHandler failureHandler() {
    var redirect = new SimpleUrlAuthenticationFailureHandler("/login?error");
    return (request, response, e) -> {
      throttle.failed(request.getParameter("username"), request.getRemoteAddr());
      redirect.onAuthenticationFailure(request, response, e);
    };
  }

  SavedRequestAwareAuthenticationSuccessHandler successHandler() {
    return new SavedRequestAwareAuthenticationSuccessHandler() {
      @Override
      public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
          org.springframework.security.core.Authentication authentication) throws ServletException, IOException {
        throttle.succeeded(authentication.getName());
        super.onAuthenticationSuccess(request, response, authentication);
      }
    };
  }
}
