package org.perftrack.server.alerts;

import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/** @param publicUrl where people reach this server ({@code PERFTRACK_PUBLIC_URL}); links in mails start with it */
@ConfigurationProperties("perftrack")
public record SiteProperties(@DefaultValue("http://localhost:8080") URI publicUrl) {

  /** The public URL without a trailing slash, to append paths to. */
  String base() {
    String s = publicUrl.toString();
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
