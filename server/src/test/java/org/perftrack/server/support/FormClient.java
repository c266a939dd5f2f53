package org.perftrack.server.support;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A browser without JavaScript: keeps cookies, posts forms with the CSRF token of the page they came from. */
public final class FormClient {

  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

  private final HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
  private final String base;

  public FormClient(String base) {
    this.base = base;
  }

  public HttpResponse<String> get(String path) {
    return get(path, "text/html");
  }

  /** A GET asking for {@code accept} (an actuator endpoint answers JSON only). */
  public HttpResponse<String> get(String path, String accept) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept).GET());
  }

  /** Posts {@code form} with the CSRF token found on {@code from}. */
  public HttpResponse<String> post(String from, String path, String form) {
    Matcher csrf = CSRF.matcher(get(from).body());
    if (!csrf.find()) {
      throw new IllegalStateException("no CSRF token on " + from);
    }
    String body = (form.isEmpty() ? "" : form + "&") + "_csrf=" + enc(csrf.group(1));
    return send(HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Posts {@code form} with this browser's cookies but no CSRF token, as a forged form on another site would. */
  public HttpResponse<String> postWithoutCsrf(String path, String form) {
    return send(HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  public HttpResponse<String> signIn(String user, String password) {
    return post("/login", "/login", "username=" + enc(user) + "&password=" + enc(password));
  }

  /** Signs in and fails unless the answer sends the browser on (not back to {@code /login?error}); returns this. */
  public FormClient signedIn(String user, String password) {
    HttpResponse<String> r = signIn(user, password);
    String to = r.headers().firstValue("Location").orElse("");
    if (r.statusCode() != 302 || to.contains("/login")) {
      throw new IllegalStateException(user + " was not signed in: " + r.statusCode() + " to '" + to + "'");
    }
    return this;
  }

  public static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
