package org.perftrack.agent;

import java.net.MalformedURLException;
import java.net.URL;

/** Checks a server address before anything is measured or sent: a typo is a usage error, not retries. */
final class ServerUrl {

  private ServerUrl() {}

  /** What is wrong with {@code url}, or null when it is an http or https address with a host. */
  static String problem(String url) {
    String trimmed = url.trim();
    String example = "give it with its scheme, e.g. http://" + (trimmed.contains("://") ? "host:8080" : trimmed);
    if (!trimmed.contains("://")) {
      return "'" + url + "' has no scheme: " + example;
    }
    try {
      URL parsed = new URL(trimmed);
      if (!parsed.getProtocol().equals("http") && !parsed.getProtocol().equals("https")) {
        return "'" + url + "' is not an http or https address";
      }
      if (parsed.getHost() == null || parsed.getHost().isEmpty()) {
        return "'" + url + "' names no host: " + example;
      }
      if (parsed.getQuery() != null || parsed.getRef() != null) {
        return "'" + url + "' has a query or a fragment: give the server's address only";
      }
      return null;
    } catch (MalformedURLException e) {
      return "'" + url + "' is not a URL (" + e.getMessage() + ")";
    }
  }
}
