package org.perftrack.server.alerts;

import jakarta.validation.constraints.NotNull;
import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** @param publicUrl where people reach this server ({@code PERFTRACK_PUBLIC_URL}); links in mails start with it */
@ConfigurationProperties("perftrack")
@Validated
public record SiteProperties(@DefaultValue(SiteProperties.DEFAULT_URL) @NotNull URI publicUrl) {

  /** Where links point when {@code perftrack.public-url} is unset (the start-up log then says so). */
  public static final String DEFAULT_URL = "http://localhost:8080";

  public SiteProperties {
    String scheme = publicUrl == null ? null : publicUrl.getScheme();
    if (publicUrl != null && (publicUrl.getHost() == null || !("http".equals(scheme) || "https".equals(scheme)))) {
      throw new IllegalArgumentException("perftrack.public-url must be an absolute http(s) URL such as "
          + "https://perf.example.org, got " + publicUrl);
    }
  }

  /** The public URL without a trailing slash, to append paths to. */
  public String base() {
    String s = publicUrl.toString();
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
