package org.perftrack.server.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.perftrack.server.db.Json;
import tools.jackson.databind.JsonNode;

/** A small real HTTP client for tests (the JDK's), so that requests go through Tomcat and every filter. */
public final class Http {

  /** A response: status, content type and body, with the body parsed as JSON on demand. */
  public record Response(int status, String contentType, String body) {
    public JsonNode json() {
      return Json.MAPPER.readTree(body);
    }

    /** A page's text as a person reads it, roughly: head, scripts and tags dropped, entities read, spaces folded. */
    public String text() {
      return org.springframework.web.util.HtmlUtils.htmlUnescape(body.replaceAll("(?s)<head>.*?</head>", " ")
          .replaceAll("(?s)<script.*?</script>", " ").replaceAll("<[^>]+>", " ")).replaceAll("\\s+", " ");
    }
  }

  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String base;

  public Http(String base) {
    this.base = base;
  }

  public Response get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  /** A GET as a browser sends it (Accept: text/html), so errors come back as pages. */
  public Response page(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", "text/html,*/*;q=0.8").GET());
  }

  public Response getWithToken(String path, String token) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token).GET());
  }

  public Response postJson(String path, String body, String token) {
    return postBytes(path, body.getBytes(java.nio.charset.StandardCharsets.UTF_8), "application/json", token);
  }

  public Response postBytes(String path, byte[] body, String contentType, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return send(b);
  }

  public Response patchJson(String path, String body, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/json")
        .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return send(b);
  }

  public Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r = CLIENT.send(request.timeout(Duration.ofSeconds(60)).build(),
          HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
