package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** One POST to {@code /api/v1/runs}: an optional query, a content type, a body. */
public final class Request {
  private final String query;
  private final String contentType;
  private final byte[] body;

  public Request(String query, String contentType, byte[] body) {
    this.query = query;
    this.contentType = contentType;
    this.body = body;
  }

  /** A spooled entry's content: a run ({@code .json}), or another tool's file after its query line. */
  static Request of(String fileName, byte[] content) {
    if (!fileName.endsWith(Spool.FOREIGN)) {
      return new Request("", "application/json", content);
    }
    int newline = 0;
    while (newline < content.length && content[newline] != '\n') {
      newline++;
    }
    String query = new String(content, 0, newline, StandardCharsets.US_ASCII);
    byte[] file = new byte[Math.max(0, content.length - newline - 1)];
    System.arraycopy(content, Math.min(content.length, newline + 1), file, 0, file.length);
    return new Request(query, "application/octet-stream", file);
  }

  public String query() {
    return query;
  }

  public String contentType() {
    return contentType;
  }

  public byte[] body() {
    return body;
  }

  /** A run's {@code batchSize}: how many runs its session sends (0: none given, or another tool's file). */
  public int batchSize() {
    JsonNode size = query.isEmpty() ? run().get("batchSize") : null;
    return size == null || !size.canConvertToInt() ? 0 : Math.max(0, size.asInt());
  }

  /** The version the entry measured (a run's {@code version}, another tool's file's query), or null. */
  public String version() {
    return field("version", "version");
  }

  /** The product (a run's {@code product}, another tool's file's query), or null. */
  public String product() {
    return field("product", "product");
  }

  /** The machine's name (a run's {@code machine.name}, another tool's file's query), or null. */
  public String machine() {
    if (!query.isEmpty()) {
      return parameter("machine");
    }
    JsonNode name = run().path("machine").get("name");
    return name == null || !name.isTextual() ? null : name.asText();
  }

  /** A run's session ({@code batch}), or null. */
  public String batch() {
    return field("batch", null);
  }

  private String field(String runField, String parameter) {
    if (!query.isEmpty()) {
      return parameter == null ? null : parameter(parameter);
    }
    JsonNode value = run().get(runField);
    return value == null || !value.isTextual() ? null : value.asText();
  }

  /** The run's JSON; an empty object when it is unreadable (the server says what is wrong with it). */
  private JsonNode run() {
    try {
      JsonNode node = WireJson.MAPPER.readTree(body);
      return node != null && node.isObject() ? node : WireJson.MAPPER.createObjectNode();
    } catch (IOException e) {
      return WireJson.MAPPER.createObjectNode();
    }
  }

  private String parameter(String name) {
    for (String pair : query.split("&")) {
      if (pair.startsWith(name + "=")) {
        try {
          return URLDecoder.decode(pair.substring(name.length() + 1), "UTF-8");
        } catch (UnsupportedEncodingException | IllegalArgumentException e) {
          return null; // the server says what is wrong with the entry
        }
      }
    }
    return null;
  }

  /** The query of another tool's file: its parameters, URL-encoded, in their order. */
  static String query(Map<String, String> parameters) {
    StringBuilder query = new StringBuilder();
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      if (p.getValue() != null) {
        query.append(query.length() == 0 ? "" : "&").append(encode(p.getKey())).append('=')
            .append(encode(p.getValue()));
      }
    }
    return query.toString();
  }

  private static String encode(String s) {
    try {
      return URLEncoder.encode(s, "UTF-8");
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    }
  }
}
