package org.perftrack.agent.upload;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.formats.Json;

/**
 * A real HTTP server standing in for perftrack's POST /api/v1/runs: scripted answers first, then the
 * contract's idempotent behaviour (201 for a new id, 200 for a repeat, 409 for other content).
 */
public final class FakeServer implements AutoCloseable {

  /** A scripted answer. */
  public record Answer(int status, String body) {}

  private final HttpServer http;
  private final Deque<Answer> script = new ArrayDeque<>();
  private final Map<String, String> stored = Collections.synchronizedMap(new LinkedHashMap<>());
  private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
  private volatile int requests;
  private volatile String regressions = "[]";

  public FakeServer(int port) throws IOException {
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    http.createContext("/api/v1/runs", exchange -> {
      requests++;
      authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Answer answer = next(body);
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type",
          answer.status() >= 400 ? "application/problem+json" : "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length);
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

  public void reportRegressions(String jsonArray) {
    regressions = jsonArray;
  }

  public int requests() {
    return requests;
  }

  /** Run id → body, each id once. */
  public Map<String, String> stored() {
    return Map.copyOf(stored);
  }

  public List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  private Answer next(String body) {
    synchronized (script) {
      if (!script.isEmpty()) {
        return script.poll();
      }
    }
    String id = Json.MAPPER.readTree(body).get("id").asString();
    String previous = stored.putIfAbsent(id, body);
    if (previous == null) {
      return new Answer(201, "{\"id\":\"" + id + "\",\"regressions\":" + regressions + "}");
    }
    return previous.equals(body) ? new Answer(200, "{\"id\":\"" + id + "\",\"regressions\":[]}")
        : new Answer(409, "{\"title\":\"Conflict\",\"status\":409,\"detail\":\"run " + id + " exists with other content\"}");
  }

  @Override
  public void close() {
    http.stop(0);
  }
}
