package org.perftrack.server.security;

import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * Which scope each API request needs: the one list to extend when an endpoint is added. Anything not
 * declared here is secure by default: reads need {@code read} (or are public with {@code public-read}),
 * writes need {@code admin}. An {@code admin} token may do everything.
 */
final class ApiAccess {

  /** Reads that are never public: subscribers' e-mail addresses, webhooks (their URLs reach a team's chat). */
  static final String[] ADMIN_READS = {"/api/v1/subscriptions", "/api/v1/subscriptions/**", "/api/v1/audit",
      "/api/v1/deletions", "/api/v1/webhooks", "/api/v1/webhooks/**"};
  static final String[] UPLOADS = {"/api/v1/runs", "/api/v1/runs:import", "/api/v1/profiles"};
  static final String[] TRIAGE_PATCHES = {"/api/v1/regressions/*", "/api/v1/summaries/*"};
  /** Benchmark settings; the bugs filed about a regression or a summary. */
  static final String[] TRIAGE_PUTS = {"/api/v1/benchmark-settings/**", "/api/v1/regressions/*/bugs",
      "/api/v1/summaries/*/bugs"};
  /** Triage of regressions; excluding a run from judgement and including it again ({@code /api/v1/runs/{id}:exclude}). */
  static final String[] TRIAGE_POSTS = {"/api/v1/regressions/*/**", "/api/v1/runs/*", "/api/v1/annotations",
      "/api/v1/annotations/*", "/api/v1/summaries/*"};
  /** Notes on the charts are curated by triage: deleted (with undo) like they are made. */
  static final String[] TRIAGE_DELETES = {"/api/v1/annotations/*"};
  /** What a lab agent does with its (upload) token: register, heartbeat, claim and report its jobs. */
  static final String[] AGENT_POSTS = {"/api/v1/lab/agents", "/api/v1/lab/agents/*/**", "/api/v1/lab/jobs/*/**"};
  /** Asking the lab for work: a run now, a schedule. */
  static final String[] LAB_REQUESTS = {"/api/v1/lab/jobs", "/api/v1/lab/schedules", "/api/v1/lab/schedules/*"};
  static final String[] DOCS = {"/v3/api-docs", "/v3/api-docs/**"};

  private ApiAccess() {}

  static void rules(AuthorizeHttpRequestsConfigurer<?>.AuthorizationManagerRequestMatcherRegistry a, boolean publicRead) {
    a.requestMatchers(HttpMethod.GET, ADMIN_READS).hasAuthority(Scope.ADMIN.authority());
    a.requestMatchers(HttpMethod.HEAD, ADMIN_READS).hasAuthority(Scope.ADMIN.authority());
    a.requestMatchers(HttpMethod.POST, UPLOADS).hasAnyAuthority(granting(Scope.UPLOAD));
    a.requestMatchers(HttpMethod.PATCH, TRIAGE_PATCHES).hasAnyAuthority(granting(Scope.TRIAGE));
    a.requestMatchers(HttpMethod.PUT, TRIAGE_PUTS).hasAnyAuthority(granting(Scope.TRIAGE));
    a.requestMatchers(HttpMethod.POST, TRIAGE_POSTS).hasAnyAuthority(granting(Scope.TRIAGE));
    a.requestMatchers(HttpMethod.DELETE, TRIAGE_DELETES).hasAnyAuthority(granting(Scope.TRIAGE));
    a.requestMatchers(HttpMethod.POST, AGENT_POSTS).hasAnyAuthority(granting(Scope.UPLOAD));
    a.requestMatchers(HttpMethod.POST, LAB_REQUESTS).hasAnyAuthority(granting(Scope.TRIAGE));
    a.requestMatchers(HttpMethod.DELETE, LAB_REQUESTS).hasAnyAuthority(granting(Scope.TRIAGE));
    if (publicRead) {
      a.requestMatchers(HttpMethod.GET, "/api/**").permitAll();
      a.requestMatchers(HttpMethod.HEAD, "/api/**").permitAll();
      a.requestMatchers(DOCS).permitAll();
    } else {
      a.requestMatchers(HttpMethod.GET, "/api/**").hasAnyAuthority(granting(Scope.READ));
      a.requestMatchers(HttpMethod.HEAD, "/api/**").hasAnyAuthority(granting(Scope.READ));
      a.requestMatchers(DOCS).hasAnyAuthority(granting(Scope.READ));
    }
    a.anyRequest().hasAuthority(Scope.ADMIN.authority());
  }

  private static String[] granting(Scope scope) {
    return new String[] {scope.authority(), Scope.ADMIN.authority()};
  }
}
