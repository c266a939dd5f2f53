package org.perftrack.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code POST /login} while {@link SignInThrottle} says slow down: the attempt waits its delay, then its password is
 * checked. Attempts for one name take turns in arrival order (so a guesser gets one guess per delay, and the
 * user's own attempt comes after at most the one ahead of it); at most {@link #HELD} attempts wait at once, in
 * all, so that waiting sign-ins never take many worker threads; beyond that: 429 with {@code Retry-After}.
 */
class SignInThrottleFilter extends OncePerRequestFilter {

  static final int HELD = 16;
  private static final int STRIPES = 64;

  private final SignInThrottle throttle;
  private final Semaphore held = new Semaphore(HELD);
  private final ReentrantLock[] turns = new ReentrantLock[STRIPES];

  SignInThrottleFilter(SignInThrottle throttle) {
    this.throttle = throttle;
    for (int i = 0; i < STRIPES; i++) {
      turns[i] = new ReentrantLock(true);
    }
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !("POST".equals(request.getMethod()) && "/login".equals(request.getServletPath()));
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String username = request.getParameter("username");
    String address = request.getRemoteAddr();
    if (throttle.delay(username, address).isZero()) {
      chain.doFilter(request, response);
      return;
    }
    if (!held.tryAcquire()) {
      tooMany(response, throttle.delay(username, address));
      return;
    }
    ReentrantLock turn = turns[Math.floorMod(SignInThrottle.userKey(username).hashCode(), STRIPES)];
    try {
      if (!turn.tryLock(2 * SignInThrottle.MAX_DELAY.toSeconds(), TimeUnit.SECONDS)) {
        tooMany(response, SignInThrottle.MAX_DELAY);
        return;
      }
      try {
        Thread.sleep(throttle.delay(username, address).toMillis());
        chain.doFilter(request, response);
      } finally {
        turn.unlock();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      tooMany(response, SignInThrottle.MAX_DELAY);
    } finally {
      held.release();
    }
  }

  private static void tooMany(HttpServletResponse response, Duration wait) throws IOException {
    response.setHeader("Retry-After", Long.toString(Math.max(1, wait.toSeconds())));
    response.sendError(HttpStatus.TOO_MANY_REQUESTS.value(), "too many sign-ins waiting; try again later");
  }

  /** A refused sign-in: the form again with its error, still returning where it was asked from. */
  AuthenticationFailureHandler failureHandler() {
    return (request, response, e) -> {
      throttle.failed(request.getParameter("username"), request.getRemoteAddr());
      String next = SignInReturn.localPath(request.getParameter(SignInReturn.PARAMETER))
          .map(n -> "&" + SignInReturn.PARAMETER + "=" + URLEncoder.encode(n, StandardCharsets.UTF_8)).orElse("");
      new SimpleUrlAuthenticationFailureHandler("/login?error" + next).onAuthenticationFailure(request, response, e);
    };
  }

  SavedRequestAwareAuthenticationSuccessHandler successHandler() {
    return new SavedRequestAwareAuthenticationSuccessHandler() {
      @Override
      public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response,
          org.springframework.security.core.Authentication authentication) throws ServletException, IOException {
        throttle.succeeded(request.getParameter("username"), request.getRemoteAddr());
        var next = SignInReturn.localPath(request.getParameter(SignInReturn.PARAMETER));
        if (next.isPresent()) { // back to the page the "Sign in" link was followed from
          clearAuthenticationAttributes(request);
          getRedirectStrategy().sendRedirect(request, response, next.get());
          return;
        }
        super.onAuthenticationSuccess(request, response, authentication);
      }
    };
  }
}
