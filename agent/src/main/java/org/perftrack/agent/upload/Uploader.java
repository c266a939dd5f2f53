package org.perftrack.agent.upload;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.time.Duration;

/**
 * POSTs one spooled run, or one file of another tool, to {@code /api/v1/runs}. Connection errors,
 * timeouts, 5xx, 408 and 429 are retried with
 * exponential backoff; resending is safe because the server stores a run id once (200 for a repeat).
 * A 4xx is a rejection only when it is our server's {@code application/problem+json}: Tomcat's own HTML
 * page for a request cut during shutdown, or a proxy's page, says nothing about the run and is retried.
 */
public final class Uploader {

  /** How much longer the answer to a run of a session that gives batchSize may take, per run of the session. */
  static final long READ_TIMEOUT_PER_SESSION_RUN_MILLIS = 500;
  /** How long the answer to any upload may take. */
  static final long READ_TIMEOUT_MILLIS = 120_000;

  private final String server;
  private final String endpoint;
  private final String token;
  private final Retry retry;

  public Uploader(String server, String token, Retry retry) {
    this.server = server.replaceAll("/+$", "");
    this.endpoint = this.server + "/api/v1/runs";
    this.token = token;
    this.retry = retry;
  }

  /** Where runs go: {@code server}'s {@code /api/v1/runs}. */
  public String endpoint() {
    return endpoint;
  }

  /** POSTs a run (our JSON) to {@code /api/v1/runs}. */
  public Outcome send(byte[] runJson) throws InterruptedException {
    return send(new Request("", "application/json", runJson));
  }

  /** POSTs a spooled request: a run, or another tool's file with its {@code ?format=…} query. */
  public Outcome send(Request request) throws InterruptedException {
    Duration delay = retry.firstDelay();
    String reason = "no attempt made";
    for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
      if (attempt > 1) {
        Thread.sleep(delay.toMillis());
        delay = retry.next(delay);
      }
      try {
        Response response = post(request);
        Outcome outcome = outcome(response.status, Answers.isProblem(response.contentType), response.body);
        if (outcome != null) {
          return outcome;
        }
        reason = "HTTP " + response.status;
      } catch (IOException e) {
        reason = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      }
    }
    return new Outcome.Unreachable(reason + " after " + retry.attempts() + " attempts");
  }

  /**
   * The read timeout of one POST: 120 s, plus 0.5 s per run of the run's session when it gives {@code batchSize}
   * (the upload that brings a session's last run is answered once the server has judged all of them).
   */
  static int readTimeoutMillis(Request request) {
    long millis = READ_TIMEOUT_MILLIS + READ_TIMEOUT_PER_SESSION_RUN_MILLIS * request.batchSize();
    return (int) Math.min(Integer.MAX_VALUE, millis);
  }

  /** HttpURLConnection, not java.net.http: the agent runs on Java 8. */
  private Response post(Request request) throws IOException {
    URL url = new URL(request.query().isEmpty() ? endpoint : endpoint + "?" + request.query());
    HttpURLConnection http = (HttpURLConnection) url.openConnection();
    try {
      http.setConnectTimeout(10_000);
      http.setReadTimeout(readTimeoutMillis(request));
      http.setRequestMethod("POST");
      http.setDoOutput(true);
      // no streaming mode: in it a 401's problem detail cannot be read
      http.setRequestProperty("Content-Type", request.contentType());
      http.setRequestProperty("Accept", "application/json, application/problem+json");
      http.setRequestProperty("Authorization", "Bearer " + token);
      try (OutputStream out = http.getOutputStream()) {
        out.write(request.body());
      }
      int status = http.getResponseCode();
      InputStream in = status >= 400 ? http.getErrorStream() : http.getInputStream();
      return new Response(status, http.getContentType(), Answers.text(in));
    } finally {
      http.disconnect();
    }
  }

  /** What an answer means for the run; null for one that is worth another try. */
  private Outcome outcome(int status, boolean problem, String body) {
    if (status == 200 || status == 201) {
      return Stored.of(status, body, server);
    }
    if (status == 404 || status == 405 || (status == 401 || status == 403) && !problem) {
      return new Outcome.NotPerftrack(status, body);
    }
    if (status == 401 || status == 403) {
      return new Outcome.Refused(status, body);
    }
    if (status >= 400 && status < 500 && status != 408 && status != 429 && problem) {
      return new Outcome.Rejected(status, body);
    }
    return null;
  }

  private static final class Response {
    final int status;
    final String contentType;
    final String body;

    Response(int status, String contentType, String body) {
      this.status = status;
      this.contentType = contentType;
      this.body = body;
    }
  }
}
