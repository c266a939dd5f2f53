package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * POSTs a chunk of NDJSON lines, gzipped, to {@code /api/v1/runs:import}, retrying like {@link Uploader}:
 * a chunk sent twice is harmless, since the server skips run ids it already has with the same content.
 * Line numbers in the server's answer count from the chunk's first line; they come back as the file's.
 * Java 8: HttpURLConnection, Jackson 2.
 */
public final class Importer {

  private static final ObjectMapper JSON = WireJson.MAPPER;
  private static final Pattern LINE_FIELD = Pattern.compile("^line (\\d+): (.*)$");

  /** What the server did with one chunk; {@code errors} read "line N: field: message" in file lines. */
  public static final class Answer {
    public final int created;
    public final int unchanged;
    public final int failed;
    public final int regressions;
    public final List<String> errors;

    Answer(int created, int unchanged, int failed, int regressions, List<String> errors) {
      this.created = created;
      this.unchanged = unchanged;
      this.failed = failed;
      this.regressions = regressions;
      this.errors = Collections.unmodifiableList(errors);
    }
  }

  /** The token was refused (401/403), or the server is unreachable after every retry. */
  public static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    public final boolean unreachable;

    Failure(String message, boolean unreachable) {
      super(message);
      this.unreachable = unreachable;
    }
  }

  private final String endpoint;
  private final String token;
  private final Retry retry;

  public Importer(String server, String token, Retry retry) {
    this.endpoint = server.replaceAll("/+$", "") + "/api/v1/runs:import";
    this.token = token;
    this.retry = retry;
  }

  /** Sends lines {@code firstLine…} of a file, one run each. */
  public Answer send(List<String> lines, long firstLine) throws Failure, InterruptedException {
    return send(lines, firstLine, "application/x-ndjson");
  }

  /**
   * Sends a whole CSV file (header first) as {@code text/csv}: the rows of one run may be anywhere in it, so it
   * is one request; the server's line numbers are the file's.
   */
  public Answer sendCsv(List<String> lines) throws Failure, InterruptedException {
    return send(lines, 1, "text/csv");
  }

  private Answer send(List<String> lines, long firstLine, String contentType) throws Failure, InterruptedException {
    byte[] body = gzip(lines);
    long delay = retry.firstDelay().toMillis();
    String reason = "no attempt made";
    for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
      if (attempt > 1) {
        Thread.sleep(delay);
        delay = Math.min(delay * 2, retry.maxDelay().toMillis());
      }
      try {
        HttpURLConnection http = (HttpURLConnection) new URL(endpoint).openConnection();
        http.setRequestMethod("POST");
        http.setDoOutput(true);
        http.setConnectTimeout(10_000);
        http.setReadTimeout(600_000);
        // no streaming mode: in it a 401's problem detail cannot be read
        http.setRequestProperty("Content-Type", contentType);
        http.setRequestProperty("Content-Encoding", "gzip");
        http.setRequestProperty("Accept", "application/json, application/problem+json");
        http.setRequestProperty("Authorization", "Bearer " + token);
        try (OutputStream out = http.getOutputStream()) {
          out.write(body);
        }
        int status = http.getResponseCode();
        String answer = Answers.text(status < 400 ? http.getInputStream() : http.getErrorStream());
        if (status == 200) {
          return answer(JSON.readTree(answer), firstLine);
        }
        boolean ours = Answers.isProblem(http.getContentType());
        if (status == 400 && ours) {
          return badChunk(JSON.readTree(answer), lines.size(), firstLine);
        }
        if (status == 404 || status == 405 || (status == 401 || status == 403) && !ours) {
          throw new Failure("no perftrack server at this URL: POST " + endpoint + " answered HTTP " + status
              + ", not perftrack's API; give the server's own address (e.g. http://host:8080)", false);
        }
        if (status == 401 || status == 403) {
          throw new Failure("the server refused the token (HTTP " + status + "): " + Answers.detail(answer), false);
        }
        reason = "HTTP " + status + (status == 413 ? ": " + answer : "");
        if (status >= 400 && status < 500 && status != 408 && status != 429 && ours) {
          throw new Failure("the server refused the import (" + reason + ")", false);
        }
      } catch (IOException e) {
        reason = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
      }
    }
    throw new Failure("the server was unreachable: " + reason + " after " + retry.attempts() + " attempts", true);
  }

  private static Answer answer(JsonNode report, long firstLine) {
    List<String> errors = new ArrayList<>();
    for (JsonNode e : report.path("errors")) {
      for (JsonNode p : e.path("problems")) {
        errors.add("line " + (firstLine - 1 + e.path("line").asLong()) + ": " + p.path("field").asText() + ": "
            + p.path("message").asText());
      }
    }
    return new Answer(report.path("created").asInt(), report.path("unchanged").asInt(), report.path("failed").asInt(),
        report.path("regressions").asInt(), errors);
  }

  /** A 400: no line of the chunk was good; its problem lists them as "line N: field". */
  private static Answer badChunk(JsonNode problem, int lines, long firstLine) {
    List<String> errors = new ArrayList<>();
    for (JsonNode f : problem.path("fields")) {
      Matcher m = LINE_FIELD.matcher(f.path("field").asText());
      String where = m.matches() ? "line " + (firstLine - 1 + Long.parseLong(m.group(1))) + ": " + m.group(2)
          : f.path("field").asText();
      errors.add(where + ": " + f.path("message").asText());
    }
    if (errors.isEmpty()) {
      errors.add("lines " + firstLine + "-" + (firstLine + lines - 1) + ": " + problem.path("detail").asText());
    }
    return new Answer(0, 0, lines, 0, errors);
  }

  private static byte[] gzip(List<String> lines) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      for (String line : lines) {
        out.write(line.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
      }
    } catch (IOException e) {
      throw new IllegalStateException("gzip into memory failed", e);
    }
    return bytes.toByteArray();
  }
}
