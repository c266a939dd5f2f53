package org.perftrack.server.security;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;

/**
 * What an API token may do, chosen by the admin who makes it. {@code admin} includes the others.
 * The bootstrap token has {@link #BOOTSTRAP}: agents and CI need no more.
 */
public enum Scope {
  /** POST runs (JSON, foreign formats, bulk import). */
  UPLOAD,
  /** GET the API and {@code /v3/api-docs} when {@code public-read=false}. */
  READ,
  /** Change regressions, summaries and benchmark settings. */
  TRIAGE,
  /** Everything, including subscriptions (subscribers' addresses) and any write not given a scope. */
  ADMIN;

  public static final Set<Scope> BOOTSTRAP = EnumSet.of(UPLOAD, READ);

  /** The spelling in the database, the admin form and the docs. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public String authority() {
    return "SCOPE_" + wire();
  }

  /** An admin: a token with {@code admin}, or a signed-in user of role ADMIN. */
  public static boolean isAdmin(Authentication who) {
    return who != null && who.getAuthorities().stream().anyMatch(a -> ADMIN.authority().equals(a.getAuthority())
        || "ROLE_ADMIN".equals(a.getAuthority()));
  }

  /** Anyone but an anonymous reader: a token or a signed-in user. */
  public static boolean known(Authentication who) {
    return who != null && who.isAuthenticated() && !(who instanceof AnonymousAuthenticationToken);
  }

  public static Optional<Scope> parse(String s) {
    return Arrays.stream(values()).filter(v -> v.wire().equals(s)).findFirst();
  }

  static String[] wire(Set<Scope> scopes) {
    return scopes.stream().sorted().map(Scope::wire).toArray(String[]::new);
  }

  static Set<Scope> parseAll(List<String> wire) {
    return wire.stream().map(Scope::parse).flatMap(Optional::stream)
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(Scope.class)));
  }
}
