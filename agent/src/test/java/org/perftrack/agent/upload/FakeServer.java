package org.perftrack.agent.upload;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real HTTP server standing in for perftrack's POST /api/v1/runs: scripted answers first, then the
 * contract's idempotent behaviour (201 for a new id, 200 for a repeat, 409 for other content).
 */
public final class FakeServer implements AutoCloseable {

  /** A scripted answer; a null content type means ours (problem+json for an error, else JSON). */
  public record Answer(int status, String contentType, String body) {
    Answer(int status, String body) {
      this(status, null, body);
    }
  }

  private final HttpServer http;
  private final Deque<Answer> script = new ArrayDeque<>();
  private final Map<String, String> stored = Collections.synchronizedMap(new LinkedHashMap<>());
  private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
  private final List<String> queries = Collections.synchronizedList(new ArrayList<>());
  private final List<String> contentTypes = Collections.synchronizedList(new ArrayList<>());
  private volatile int requests;
  private volatile String regressions = "[]";
  private volatile String summaries = "[]";
  private volatile String confirmed = "[]";
  private volatile String waiting = "[]";
  private volatile String inconclusive = null;

  public FakeServer(int port) throws IOException {
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    http.createContext("/api/v1/runs", exchange -> {
      requests++;
      authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String query = exchange.getRequestURI().getRawQuery();
      queries.add(query == null ? "" : query);
      contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
      Answer answer = next(query == null ? null : parameter(query, "id"), body);
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", answer.contentType() != null ? answer.contentType()
          : answer.status() >= 400 ? "application/problem+json" : "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    // a server whose API is elsewhere: Spring's error JSON for a POST to its pages, not perftrack's problem detail
    http.createContext("/elsewhere/", exchange -> {
      requests++;
      exchange.getRequestBody().readAllBytes();
      byte[] bytes = "{\"status\":403,\"error\":\"Forbidden\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(403, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
    http.start();
  }

  public static FakeServer start() throws IOException {
    return new FakeServer(0);
  }

  public String url() {
    return "http://127.0.0.1:" + http.getAddress().getPort();
  }

  public void then(int status, String body) {
    synchronized (script) {
      script.add(new Answer(status, body));
    }
  }

  /** A scripted answer of someone else (Tomcat's own error page, a proxy) with this content type. */
  public void then(int status, String contentType, String body) {
    synchronized (script) {
      script.add(new Answer(status, contentType, body));
    }
  }

  public void reportRegressions(String jsonArray) {
    regressions = jsonArray;
  }

  /** The regressions each upload answers as confirmed by it (reported unconfirmed by an earlier one). */
  public void reportConfirmed(String jsonArray) {
    confirmed = jsonArray;
  }

  /** The changes each upload answers as waiting for one more build. */
  public void reportWaiting(String jsonArray) {
    waiting = jsonArray;
  }

  /** A branch run's inconclusive changes, as each upload answers them (null: the field is left out, as for main). */
  public void reportInconclusive(String jsonArray) {
    inconclusive = jsonArray;
  }

  public void reportSummaries(String jsonArray) {
    summaries = jsonArray;
  }

  public int requests() {
    return requests;
  }

  /** Run id → body, each id once. */
  /** The runs stored so far, by id, in the order they arrived (a copy). */
  public Map<String, String> stored() {
    synchronized (stored) {
      return Collections.unmodifiableMap(new LinkedHashMap<>(stored));
    }
  }

  public List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  /** The raw query string of each request ("" when none), in order. */
  public List<String> queries() {
    return List.copyOf(queries);
  }

  public List<String> contentTypes() {
    return List.copyOf(contentTypes);
  }

  /** A decoded query parameter, null when absent. */
  public static String parameter(String query, String name) {
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0 && URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8).equals(name)) {
        return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  /** A run's id is in its JSON; another tool's file (?format=) has it in the query, like the real server. */
  private Answer next(String queryId, String body) {
    synchronized (script) {
      if (!script.isEmpty()) {
        return script.poll();
      }
    }
    String id;
    try {
      id = queryId != null ? queryId : WireJson.MAPPER.readTree(body).get("id").asText();
    } catch (IOException e) {
      return new Answer(400, "{\"title\":\"Bad Request\",\"status\":400}");
    }
    String previous = stored.putIfAbsent(id, body);
    if (previous == null) {
      return new Answer(201, "{\"id\":\"" + id + "\",\"regressions\":" + regressions + ",\"confirmed\":" + confirmed
          + ",\"summaries\":" + summaries + ",\"waiting\":" + waiting
          + (inconclusive == null ? "" : ",\"inconclusive\":" + inconclusive) + "}");
    }
    return previous.equals(body) ? new Answer(200, "{\"id\":\"" + id + "\",\"regressions\":[]}")
        : new Answer(409, "{\"title\":\"Conflict\",\"status\":409,\"detail\":\"run " + id + " exists with other content\"}");
  }

  @Override
  public void close() {
    http.stop(0);
  }
}
