package org.perftrack.server.alerts;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.perftrack.server.db.Json;
import tools.jackson.databind.JsonNode;

/**
 * A real HTTP receiver for webhook tests (the JDK's server on 127.0.0.1, a free port): it records every request and
 * answers the statuses it was told, in order, then 200.
 */
public final class Receiver implements AutoCloseable {

  /** One request as it arrived. */
  public record Request(String method, String path, Map<String, List<String>> headers, byte[] body) {
    public String header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst()
          .map(e -> e.getValue().get(0)).orElse(null);
    }

    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    public JsonNode json() {
      return Json.MAPPER.readTree(body);
    }
  }

  private final HttpServer server;
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final ConcurrentLinkedQueue<Integer> answers = new ConcurrentLinkedQueue<>();

  private Receiver(int... statuses) {
    for (int s : statuses) {
      answers.add(s);
    }
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
          Map.copyOf(exchange.getRequestHeaders()), body));
      Integer status = answers.poll();
      byte[] answer = (status == null || status < 300 ? "ok" : "answer " + status).getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status == null ? 200 : status, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    server.start();
  }

  /** Started; answers {@code statuses} to the first requests, 200 to the rest. */
  public static Receiver answering(int... statuses) {
    return new Receiver(statuses);
  }

  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
