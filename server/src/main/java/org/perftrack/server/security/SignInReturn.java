package org.perftrack.server.security;

import java.util.Optional;

/**
 * Where a sign-in returns: the page the "Sign in" link was followed from, sent as {@code next}. Only a path of this
 * site is taken (one leading {@code /}, not {@code //}, no backslash, no scheme, no control character), so that a
 * link to the sign-in page can never send the person signing in elsewhere (no open redirect).
 */
final class SignInReturn {

  static final String PARAMETER = "next";
  private static final int MAX_LENGTH = 2000;

  private SignInReturn() {}

  /** {@code next} when it is a local path, else empty. */
  static Optional<String> localPath(String next) {
    if (next == null || next.length() > MAX_LENGTH || !next.startsWith("/") || next.startsWith("//")
        || next.contains("\\") || next.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      return Optional.empty();
    }
    return Optional.of(next);
  }
}
