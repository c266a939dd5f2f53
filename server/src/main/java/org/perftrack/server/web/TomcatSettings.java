package org.perftrack.server.web;

import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What perftrack adds to Tomcat: {@link UnreadBodyValve} on every request. */
@Configuration(proxyBeanMethods = false)
class TomcatSettings {

  @Bean
  TomcatContextCustomizer unreadBodyValve() {
    return context -> context.getPipeline().addValve(new UnreadBodyValve());
  }
}
