package org.perftrack.agent.upload;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.perftrack.formats.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * POSTs one run to {@code /api/v1/runs}. Connection errors, timeouts, 5xx, 408 and 429 are retried with
 * exponential backoff; resending is safe because the server stores a run id once (200 for a repeat).
 */
public final class Uploader {

  /** @param attempts tries in all, the first included */
  public record Retry(int attempts, Duration firstDelay, Duration maxDelay) {
    public static final Retry DEFAULT = new Retry(6, Duration.ofSeconds(1), Duration.ofSeconds(30));
  }

  /** How one upload ended. */
  public sealed interface Outcome {}

  /** 200/201: the server has the run; {@code regressions} are those it flagged. */
  public record Stored(int status, List<JsonNode> regressions) implements Outcome {}

  /** A 4xx about the run itself: retrying cannot help. */
  public record Rejected(int status, String problem) implements Outcome {}

  /** 401/403: the token, not the run, is wrong; the run stays in the spool. */
  public record Refused(int status, String problem) implements Outcome {}

  /** Still down after every retry. */
  public record Unreachable(String reason) implements Outcome {}

  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final URI endpoint;
  private final String token;
  private final Retry retry;

  public Uploader(String server, String token, Retry retry) {
    this.endpoint = URI.create(server.replaceAll("/+$", "") + "/api/v1/runs");
    this.token = token;
    this.retry = retry;
  }

  public Outcome send(byte[] runJson) throws InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(endpoint)
        .timeout(Duration.ofSeconds(120))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, application/problem+json")
        .header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofByteArray(runJson))
        .build();
    Duration delay = retry.firstDelay();
    String reason = "no attempt made";
    for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
      if (attempt > 1) {
        Thread.sleep(delay.toMillis());
        delay = min(delay.multipliedBy(2), retry.maxDelay());
      }
      try {
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status == 200 || status == 201) {
          return new Stored(status, regressions(response.body()));
        }
        reason = "HTTP " + status;
        if (status == 401 || status == 403) {
          return new Refused(status, response.body());
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429) {
          return new Rejected(status, response.body());
        }
      } catch (IOException e) {
        reason = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      }
    }
    return new Unreachable(reason + " after " + retry.attempts() + " attempts");
  }

  private static List<JsonNode> regressions(String body) {
    List<JsonNode> list = new ArrayList<>();
    try {
      JsonNode node = Json.MAPPER.readTree(body).get("regressions");
      if (node != null && node.isArray()) {
        node.forEach(list::add);
      }
    } catch (JacksonException e) {
      // the run is stored; an unreadable answer only costs the regression list
    }
    return list;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
