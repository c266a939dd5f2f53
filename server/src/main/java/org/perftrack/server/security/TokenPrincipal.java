package org.perftrack.server.security;

import java.security.Principal;

/**
 * Who calls the API with a Bearer token: the token's id (what a lab agent is bound to) and its name. Its
 * {@link #getName()}, {@code token:<name>}, is what records of who did something hold.
 */
public record TokenPrincipal(long tokenId, String tokenName) implements Principal {

  @Override
  public String getName() {
    return "token:" + tokenName;
  }

  @Override
  public String toString() {
    return getName();
  }
}
