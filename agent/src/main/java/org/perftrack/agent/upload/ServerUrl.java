package org.perftrack.agent.upload;

import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * A server's address: checked before anything is measured or sent (a typo is a usage error, not retries), and
 * normalised so that one server is one place in the spool however its address was written.
 */
public final class ServerUrl {

  private ServerUrl() {}

  /** What is wrong with {@code url}, or null when it is an http or https address with a host. */
  public static String problem(String url) {
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

  /**
   * The address as the spool records it: scheme and host in lower case, the scheme's default port and trailing
   * slashes dropped ({@code HTTP://Lab:80/} is {@code http://lab}); the path otherwise as given.
   */
  public static String normalised(String url) {
    try {
      URI uri = new URI(url.trim());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
      int port = uri.getPort();
      boolean defaultPort = port == -1 || scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
      String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
      String user = uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo() + "@";
      return scheme + "://" + user + host + (defaultPort ? "" : ":" + port) + path;
    } catch (URISyntaxException e) {
      return url.trim().replaceAll("/+$", "");
    }
  }

  /**
   * The spool folder of a server: its normalised address in letters, digits, dots and dashes, then a checksum of the
   * whole address, so that two addresses that read alike there are still two folders.
   */
  static String folder(String url) {
    String normalised = normalised(url);
    String readable = normalised.replaceFirst("^[a-z]+://", "").replaceAll("[^A-Za-z0-9.-]+", "-")
        .replaceAll("^-+|-+$", "");
    CRC32 crc = new CRC32();
    crc.update(normalised.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    String scheme = normalised.startsWith("https:") ? "https-" : "";
    return scheme + (readable.length() > 60 ? readable.substring(0, 60) : readable)
        + String.format("-%08x", crc.getValue());
  }
}
