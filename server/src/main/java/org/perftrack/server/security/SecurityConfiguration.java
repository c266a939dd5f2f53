package org.perftrack.server.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.HttpStatusEntryPoint;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.context.SecurityContextHolderFilter;

/**
 * Two chains: the REST API and its OpenAPI document (stateless, Bearer tokens with scopes, see
 * {@link ApiAccess}; no cookies so no CSRF) and the pages (form sign-in, sessions, CSRF on every
 * form). Reading is public unless {@code perftrack.security.public-read=false}.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

  private static final String[] ALWAYS_OPEN = {
      "/actuator/health", "/actuator/health/**", "/css/**", "/js/**", "/img/**", "/webjars/**", "/favicon.ico",
      "/login", "/error"};

  /**
   * The pages load scripts only from this server (WebJars and /js, never inline); inline style
   * attributes remain in a few templates, so styles allow them.
   */
  static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; "
      + "style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'; "
      + "form-action 'self'; frame-ancestors 'none'";

  /**
   * No Micrometer observations of the security filter chains, their authentications and authorizations: they
   * wrapped each of the chain's filters in an observation of its own, about 8 % of an upload's server CPU
   * ({@code UploadCpuBenchmark}), and perftrack uses none of their metrics. The request itself is still observed
   * ({@code http.server.requests}).
   */
  @Bean
  static SecurityObservationSettings securityObservationSettings() {
    return SecurityObservationSettings.noObservations();
  }

  @Bean
  PasswordEncoder passwordEncoder() {
    return PasswordEncoderFactories.createDelegatingPasswordEncoder();
  }

  @Bean
  @Order(1)
  SecurityFilterChain api(HttpSecurity http, ApiTokens tokens, SecurityProperties props) throws Exception {
    var entryPoint = new ProblemAuthenticationEntryPoint();
    boolean publicRead = props.security().publicRead();
    http.securityMatcher("/api/**", "/v3/api-docs", "/v3/api-docs/**")
        .csrf(c -> c.disable())
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .addFilterBefore(new BearerTokenFilter(tokens, entryPoint), UsernamePasswordAuthenticationFilter.class)
        .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint)
            .accessDeniedHandler(ProblemAuthenticationEntryPoint::forbidden))
        .authorizeHttpRequests(a -> ApiAccess.rules(a, publicRead));
    return http.build();
  }

  /**
   * The Atom feeds ({@code /feeds/**}): read like the pages, but a feed reader signs in nowhere and sends no header,
   * so on a server without public reads it passes a token with the read scope in the address ({@code ?token=}).
   */
  @Bean
  @Order(0)
  SecurityFilterChain feeds(HttpSecurity http, ApiTokens tokens, SecurityProperties props) throws Exception {
    var entryPoint = new ProblemAuthenticationEntryPoint("this feed needs a token with the read scope: ?token=<token>");
    http.securityMatcher("/feeds/**")
        .csrf(c -> c.disable())
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .addFilterBefore(BearerTokenFilter.inQuery(tokens, entryPoint), UsernamePasswordAuthenticationFilter.class)
        .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint)
            .accessDeniedHandler(ProblemAuthenticationEntryPoint::forbidden))
        .authorizeHttpRequests(a -> {
          if (props.security().publicRead()) {
            a.requestMatchers(HttpMethod.GET, "/feeds/**").permitAll();
          } else {
            a.requestMatchers(HttpMethod.GET, "/feeds/**")
                .hasAnyAuthority(Scope.READ.authority(), Scope.ADMIN.authority());
          }
          a.anyRequest().denyAll();
        });
    return http.build();
  }

  @Bean
  SignInThrottle signInThrottle() {
    return new SignInThrottle(java.time.Clock.systemUTC());
  }

  @Bean
  @Order(2)
  SecurityFilterChain pages(HttpSecurity http, SecurityProperties props, Users users, SignInThrottle throttle)
      throws Exception {
    boolean publicRead = props.security().publicRead();
    var throttleFilter = new SignInThrottleFilter(throttle);
    http.addFilterBefore(throttleFilter, UsernamePasswordAuthenticationFilter.class)
        .addFilterAfter(new DisabledUserFilter(users), SecurityContextHolderFilter.class)
        .headers(h -> h.contentSecurityPolicy(c -> c.policyDirectives(CONTENT_SECURITY_POLICY)))
        .authorizeHttpRequests(a -> {
          a.requestMatchers(ALWAYS_OPEN).permitAll();
          a.requestMatchers("/admin/**").hasRole("ADMIN");
          a.requestMatchers("/account", "/account/**").authenticated();
          if (publicRead) {
            a.requestMatchers(HttpMethod.GET, "/**").permitAll();
          }
          a.anyRequest().authenticated();
        })
        .formLogin(f -> f.loginPage("/login").permitAll()
            .failureHandler(throttleFilter.failureHandler()).successHandler(throttleFilter.successHandler()))
        .logout(l -> l.logoutSuccessUrl("/"))
        .exceptionHandling(e -> e.defaultAuthenticationEntryPointFor(
            new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED),
            request -> request.getRequestURI().startsWith("/v3/api-docs")));
    return http.build();
  }
}
