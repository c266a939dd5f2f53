package org.perftrack.server.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** The one line an operator waits for: where to point the browser, once the server answers. */
@Component
class ReadyLine {

  private static final Logger log = LoggerFactory.getLogger("perftrack");

  private final Environment environment;

  ReadyLine(Environment environment) {
    this.environment = environment;
  }

  @EventListener(ApplicationReadyEvent.class)
  void ready(ApplicationReadyEvent event) {
    if (event.getApplicationContext() instanceof WebServerApplicationContext web && web.getWebServer() != null) {
      String address = environment.getProperty("server.address", "");
      String host = address.isBlank() || address.equals("0.0.0.0") || address.equals("::") ? "localhost" : address;
      log.info("perftrack is ready at http://{}:{}", host.contains(":") ? "[" + host + "]" : host,
          web.getWebServer().getPort());
      if (!environment.containsProperty("perftrack.public-url")) {
        log.warn("perftrack.public-url (PERFTRACK_PUBLIC_URL) is not set: links in mails, run reports and feeds"
            + " start with its default, {}; set it to the address people reach this server by", org.perftrack.server.alerts.SiteProperties.DEFAULT_URL);
      }
    }
  }
}
