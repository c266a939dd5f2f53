package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * POSTs one spooled run, or one file of another tool, to {@code /api/v1/runs}. Connection errors,
 * timeouts, 5xx, 408 and 429 are retried with
 * exponential backoff; resending is safe because the server stores a run id once (200 for a repeat).
 * A 4xx is a rejection only when it is our server's {@code application/problem+json}: Tomcat's own HTML
 * page for a request cut during shutdown, or a proxy's page, says nothing about the run and is retried.
 */
public final class Uploader {

  /** @param attempts tries in all, the first included */
  public static final class Retry {
    private final int attempts;
    private final Duration firstDelay;
    private final Duration maxDelay;

    public Retry(int attempts, Duration firstDelay, Duration maxDelay) {
      this.attempts = attempts;
      this.firstDelay = firstDelay;
      this.maxDelay = maxDelay;
    }

    public int attempts() {
      return attempts;
    }

    public Duration firstDelay() {
      return firstDelay;
    }

    public Duration maxDelay() {
      return maxDelay;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Retry)) {
        return false;
      }
      Retry o = (Retry) other;
      return attempts == o.attempts && Objects.equals(firstDelay, o.firstDelay) && Objects.equals(maxDelay, o.maxDelay);
    }

    @Override
    public int hashCode() {
      return Objects.hash(attempts, firstDelay, maxDelay);
    }

    @Override
    public String toString() {
      return "Retry[attempts=" + attempts + ", firstDelay=" + firstDelay + ", maxDelay=" + maxDelay + "]";
    }

    public static final Retry DEFAULT = new Retry(6, Duration.ofSeconds(1), Duration.ofSeconds(30));
  }

  /** How one upload ended. */
  public interface Outcome {}

  /**
   * 200/201: the server has the run; {@code regressions} are those it flagged (a step at the newest version
   * unconfirmed), {@code confirmed} those flagged unconfirmed before that this run confirmed, {@code summaries} the
   * summaries it opened or grew, each as "opened http://server/summaries/7"; {@code waiting} the changes at the
   * run's version that wait for one more build before the server reports them.
   */
  public static final class Stored implements Outcome {
    private final int status;
    private final List<JsonNode> regressions;
    private final List<JsonNode> confirmed;
    private final List<String> summaries;
    private final List<JsonNode> waiting;

    public Stored(int status, List<JsonNode> regressions) {
      this(status, regressions, new ArrayList<JsonNode>(), new ArrayList<String>());
    }

    public Stored(int status, List<JsonNode> regressions, List<JsonNode> confirmed, List<String> summaries) {
      this(status, regressions, confirmed, summaries, new ArrayList<JsonNode>());
    }

    public Stored(int status, List<JsonNode> regressions, List<JsonNode> confirmed, List<String> summaries,
        List<JsonNode> waiting) {
      this.status = status;
      this.regressions = regressions;
      this.confirmed = confirmed;
      this.summaries = summaries;
      this.waiting = waiting;
    }

    /** The version of each of {@link #summaries}, in their order; null where the server did not say it. */
    private List<String> summaryVersions = new ArrayList<String>();

    Stored withSummaryVersions(List<String> versions) {
      this.summaryVersions = versions;
      return this;
    }

    /** The version of the {@code i}th of {@link #summaries} (a session's answer names other runs' versions); null if unsaid. */
    public String summaryVersion(int i) {
      return i < summaryVersions.size() ? summaryVersions.get(i) : null;
    }

    /** The answer's {@code session} (null: the run is not one of a session that gave batchSize). */
    private JsonNode session;

    Stored withSession(JsonNode node) {
      this.session = node;
      return this;
    }

    /** The batch of the run's session, when the run waits for the session's other runs; null otherwise. */
    public String waitsForSession() {
      return session != null && !session.path("judged").asBoolean(true) ? session.path("batch").asText("") : null;
    }

    /** The batch of the run's session, when this upload judged the session; null otherwise. */
    public String judgedSession() {
      return session != null && session.path("judged").asBoolean(false) ? session.path("batch").asText("") : null;
    }

    public List<JsonNode> waiting() {
      return waiting;
    }

    public List<JsonNode> confirmed() {
      return confirmed;
    }

    public List<String> summaries() {
      return summaries;
    }

    public int status() {
      return status;
    }

    public List<JsonNode> regressions() {
      return regressions;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Stored)) {
        return false;
      }
      Stored o = (Stored) other;
      return status == o.status && Objects.equals(regressions, o.regressions);
    }

    @Override
    public int hashCode() {
      return Objects.hash(status, regressions);
    }

    @Override
    public String toString() {
      return "Stored[status=" + status + ", regressions=" + regressions + "]";
    }
  }

  /** An answer with a status and the server's problem detail: Rejected and Refused differ only in meaning. */
  abstract static class ProblemAnswer implements Outcome {
    private final int status;
    private final String problem;

    ProblemAnswer(int status, String problem) {
      this.status = status;
      this.problem = problem;
    }

    public int status() {
      return status;
    }

    public String problem() {
      return problem;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (other == null || other.getClass() != getClass()) {
        return false;
      }
      ProblemAnswer o = (ProblemAnswer) other;
      return status == o.status && Objects.equals(problem, o.problem);
    }

    @Override
    public int hashCode() {
      return Objects.hash(getClass(), status, problem);
    }

    @Override
    public String toString() {
      return getClass().getSimpleName() + "[status=" + status + ", problem=" + problem + "]";
    }
  }

  /** A 4xx about the run itself: retrying cannot help. */
  public static final class Rejected extends ProblemAnswer {
    public Rejected(int status, String problem) {
      super(status, problem);
    }
  }

  /** 401/403 of the perftrack server: the token, not the run, is wrong. */
  public static final class Refused extends ProblemAnswer {
    public Refused(int status, String problem) {
      super(status, problem);
    }
  }

  /**
   * Not the perftrack API: a 404 or 405, or a 401/403 without perftrack's problem detail (a server URL with an
   * extra path reaches the pages' security, which refuses a POST). Retrying cannot help; neither is the run wrong.
   */
  public static final class NotPerftrack extends ProblemAnswer {
    public NotPerftrack(int status, String problem) {
      super(status, problem);
    }
  }

  /** Still down after every retry. */
  public static final class Unreachable implements Outcome {
    private final String reason;

    public Unreachable(String reason) {
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Unreachable)) {
        return false;
      }
      Unreachable o = (Unreachable) other;
      return Objects.equals(reason, o.reason);
    }

    @Override
    public int hashCode() {
      return Objects.hash(reason);
    }

    @Override
    public String toString() {
      return "Unreachable[reason=" + reason + "]";
    }
  }

  private final String endpoint;
  private final String token;

  /** Where runs go: {@code server}'s {@code /api/v1/runs}. */
  public String endpoint() {
    return endpoint;
  }
  private final Retry retry;

  public Uploader(String server, String token, Retry retry) {
    this.endpoint = server.replaceAll("/+$", "") + "/api/v1/runs";
    this.token = token;
    this.retry = retry;
  }

  /** POSTs a run (our JSON) to {@code /api/v1/runs}. */
  public Outcome send(byte[] runJson) throws InterruptedException {
    return send(new Spool.Request("", "application/json", runJson));
  }

  /** POSTs a spooled request: a run, or another tool's file with its {@code ?format=…} query. */
  public Outcome send(Spool.Request request) throws InterruptedException {
    Duration delay = retry.firstDelay();
    String reason = "no attempt made";
    for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
      if (attempt > 1) {
        Thread.sleep(delay.toMillis());
        delay = min(delay.multipliedBy(2), retry.maxDelay());
      }
      try {
        Response response = post(request);
        int status = response.status;
        if (status == 200 || status == 201) {
          return new Stored(status, regressions(response.body, "regressions"), regressions(response.body, "confirmed"),
              summaries(response.body), waitingAndInconclusive(response.body)).withSession(field(response.body,
              "session")).withSummaryVersions(summaryVersions(response.body));
        }
        reason = "HTTP " + status;
        boolean problem = isProblem(response.contentType);
        if (status == 404 || status == 405 || (status == 401 || status == 403) && !problem) {
          return new NotPerftrack(status, response.body);
        }
        if (status == 401 || status == 403) {
          return new Refused(status, response.body);
        }
        if (status >= 400 && status < 500 && status != 408 && status != 429 && problem) {
          return new Rejected(status, response.body);
        }
      } catch (IOException e) {
        reason = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      }
    }
    return new Unreachable(reason + " after " + retry.attempts() + " attempts");
  }

  /** How much longer the answer to a run of a session that gives batchSize may take, per run of the session. */
  static final long READ_TIMEOUT_PER_SESSION_RUN_MILLIS = 500;
  /** How long the answer to any upload may take. */
  static final long READ_TIMEOUT_MILLIS = 120_000;

  /**
   * The read timeout of one POST: 120 s, plus 0.5 s per run of the run's session when it gives {@code batchSize}
   * (the upload that brings a session's last run is answered once the server has judged all of them).
   */
  static int readTimeoutMillis(Spool.Request request) {
    long millis = READ_TIMEOUT_MILLIS + READ_TIMEOUT_PER_SESSION_RUN_MILLIS * request.batchSize();
    return (int) Math.min(Integer.MAX_VALUE, millis);
  }

  /** HttpURLConnection, not java.net.http: the agent runs on Java 8. */
  private Response post(Spool.Request request) throws IOException {
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
      return new Response(status, http.getContentType(), text(in));
    } finally {
      http.disconnect();
    }
  }

  /** An answer's body as text (UTF-8); none is "". */
  static String text(InputStream in) throws IOException {
    if (in == null) {
      return "";
    }
    try (InputStream stream = in) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = stream.read(buffer)) > 0; ) {
        bytes.write(buffer, 0, n);
      }
      return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    }
  }

  /** The problem's {@code detail} (else its title), or the answer itself on one line when it is no problem detail. */
  public static String detail(String problem) {
    try {
      JsonNode node = WireJson.MAPPER.readTree(problem == null ? "" : problem);
      if (node != null && node.isObject()) {
        for (String field : new String[] {"detail", "title"}) {
          if (node.hasNonNull(field) && !node.get(field).asText().trim().isEmpty()) {
            return oneLine(node.get(field).asText());
          }
        }
      }
    } catch (IOException e) {
      // not JSON: shown as it came
    }
    String text = oneLine(problem);
    return text.isEmpty() ? "(the server gave no reason)" : text;
  }

  private static String oneLine(String text) {
    String s = text == null ? "" : text.replaceAll("\\s+", " ").trim();
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  /** True for {@code application/problem+json} (any parameters, any case): an answer of the perftrack server. */
  static boolean isProblem(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
    return type.equalsIgnoreCase("application/problem+json");
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

  /** The summaries named in the answer, with their page's address on this server. */
  private List<String> summaries(String body) {
    List<String> list = new ArrayList<>();
    try {
      JsonNode node = WireJson.MAPPER.readTree(body).get("summaries");
      if (node != null && node.isArray()) {
        String base = endpoint.substring(0, endpoint.length() - "/api/v1/runs".length());
        for (JsonNode s : node) {
          list.add(s.path("change").asText("changed") + " " + base + s.path("url").asText(""));
        }
      }
    } catch (IOException e) {
      // the run is stored; an unreadable answer only costs the links
    }
    return list;
  }

  /**
   * The answer's {@code waiting} changes, then a branch run's {@code inconclusive} ones, each of these marked
   * {@code "inconclusive": true}: neither is a regression, neither fails the build.
   */
  private static List<JsonNode> waitingAndInconclusive(String body) {
    List<JsonNode> list = regressions(body, "waiting");
    for (JsonNode c : regressions(body, "inconclusive")) {
      if (c instanceof com.fasterxml.jackson.databind.node.ObjectNode) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) c).put(INCONCLUSIVE, true);
        list.add(c);
      }
    }
    return list;
  }

  /** The mark of a branch run's inconclusive change among the waiting ones. */
  public static final String INCONCLUSIVE = "inconclusive";

  private static List<String> summaryVersions(String body) {
    List<String> list = new ArrayList<>();
    try {
      JsonNode node = WireJson.MAPPER.readTree(body).get("summaries");
      if (node != null && node.isArray()) {
        for (JsonNode s : node) {
          list.add(s.hasNonNull("version") ? s.get("version").asText() : null);
        }
      }
    } catch (IOException e) {
      // the run is stored; an unreadable answer only costs the versions
    }
    return list;
  }

  private static List<JsonNode> regressions(String body, String field) {
    List<JsonNode> list = new ArrayList<>();
    try {
      JsonNode node = WireJson.MAPPER.readTree(body).get(field);
      if (node != null && node.isArray()) {
        node.forEach(list::add);
      }
    } catch (IOException e) {
      // the run is stored; an unreadable answer only costs the regression list
    }
    return list;
  }

  private static JsonNode field(String body, String name) {
    try {
      JsonNode node = WireJson.MAPPER.readTree(body).get(name);
      return node != null && node.isObject() ? node : null;
    } catch (IOException e) {
      return null; // the run is stored; an unreadable answer only costs the note
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
