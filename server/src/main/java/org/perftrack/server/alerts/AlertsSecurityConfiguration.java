package org.perftrack.server.alerts;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The unsubscribe link works for anyone holding it, also with {@code public-read=false} and as an
 * RFC 8058 one-click POST from a mail client (which has no CSRF token): the link's token is the proof.
 */
@Configuration(proxyBeanMethods = false)
class AlertsSecurityConfiguration {

  @Bean
  @Order(0)
  SecurityFilterChain unsubscribeChain(HttpSecurity http) throws Exception {
    return http.securityMatcher("/alerts/unsubscribe")
        .csrf(c -> c.disable())
        .authorizeHttpRequests(a -> a.anyRequest().permitAll())
        .build();
  }
}
