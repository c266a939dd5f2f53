package org.perftrack.agent.upload;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UnsupportedEncodingException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.VersionKey;

/**
 * What waits for the server, one file each, written before any upload so that nothing measured is
 * lost: {@code <id>.json} is a run; {@code <id>.upload} is another tool's file for the server to
 * convert, its first line the {@code ?format=…&id=…} query it is sent with, then the file's bytes.
 * Sent entries move to {@code sent/}; those the server refused for good move to {@code rejected/}
 * next to a {@code .problem.json} holding the server's answer.
 */
public final class Spool {

  private static final String RUN = ".json";
  private static final String FOREIGN = ".upload";

  /** One POST to {@code /api/v1/runs}: an optional query, a content type, a body. */
  public static final class Request {
    private final String query;
    private final String contentType;
    private final byte[] body;

    public Request(String query, String contentType, byte[] body) {
      this.query = query;
      this.contentType = contentType;
      this.body = body;
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
      if (!query.isEmpty()) {
        return 0;
      }
      try {
        JsonNode size = WireJson.MAPPER.readTree(body).get("batchSize");
        return size == null || !size.canConvertToInt() ? 0 : Math.max(0, size.asInt());
      } catch (IOException e) {
        return 0; // the server says what is wrong with the entry
      }
    }

    /** The version the entry measured (a run's {@code version}, another tool's file's query), or null. */
    public String version() {
      try {
        if (query.isEmpty()) {
          JsonNode version = WireJson.MAPPER.readTree(body).get("version");
          return version == null || !version.isTextual() ? null : version.asText();
        }
        for (String pair : query.split("&")) {
          if (pair.startsWith("version=")) {
            return java.net.URLDecoder.decode(pair.substring("version=".length()), "UTF-8");
          }
        }
      } catch (IOException | IllegalArgumentException e) {
        return null; // the server says what is wrong with the entry
      }
      return null;
    }
  }

  /** Renames a file; a test stands in for Windows, where an antivirus scanning the new file makes it fail. */
  interface Mover {
    void move(Path from, Path to) throws IOException;
  }

  /** Waits between attempts at a rename that failed: a scanner holds a new file for a moment. */
  private static final long[] RETRY_MILLIS = {100, 300, 1000, 3000};

  private final Path dir;
  private final Mover mover;
  private final long[] retryMillis;

  public Spool(Path dir) {
    this(dir, Spool::atomicMove, RETRY_MILLIS);
  }

  Spool(Path dir, Mover mover, long... retryMillis) {
    this.dir = dir;
    this.mover = mover;
    this.retryMillis = retryMillis.clone();
  }

  public Path dir() {
    return dir;
  }

  /** Writes the run atomically (a crash leaves the old file or the new one, never half of one). */
  public Path save(RunUpload run) throws IOException {
    return write(run.id() + RUN, WireJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(run));
  }

  /**
   * Keeps another tool's file with the query parameters the server converts it with ({@code format},
   * {@code product}, {@code id}…); {@code id} names the entry, so a resend is the same run to the server.
   */
  public Path saveForeign(String id, Map<String, String> parameters, byte[] file) throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    content.write(query(parameters).getBytes(StandardCharsets.US_ASCII));
    content.write('\n');
    content.write(file);
    return write(id + FOREIGN, content.toByteArray());
  }

  /** Whether a run or file of this id waits in the spool already. */
  public boolean has(String id) {
    return Files.exists(dir.resolve(id + RUN)) || Files.exists(dir.resolve(id + FOREIGN));
  }

  /** What to send for a spooled entry. */
  public Request request(Path entry) throws IOException {
    byte[] content = Files.readAllBytes(entry);
    if (!entry.getFileName().toString().endsWith(FOREIGN)) {
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

  /**
   * The entries not yet on the server, oldest first, except that the runs of one session (one {@code batch}) go in
   * version order ({@link VersionKey}) in the places the session's runs hold: the server judges each run with the
   * versions it has, so a session sent in the order its targets were listed would open a step at a later version
   * and move it back as the earlier ones arrive.
   */
  public List<Path> pending() throws IOException {
    if (!Files.isDirectory(dir)) {
      return Collections.emptyList();
    }
    List<Path> oldestFirst;
    try (Stream<Path> files = Files.list(dir)) {
      oldestFirst = files.filter(p -> isEntry(p.getFileName().toString()) && Files.isRegularFile(p))
          .sorted(Comparator.comparing(Spool::modified).thenComparing(Path::getFileName))
          .collect(Collectors.toList());
    }
    return sessionsInVersionOrder(oldestFirst);
  }

  private static List<Path> sessionsInVersionOrder(List<Path> entries) {
    Map<String, List<Integer>> places = new LinkedHashMap<>();
    String[] versions = new String[entries.size()];
    for (int i = 0; i < entries.size(); i++) {
      Path entry = entries.get(i);
      if (!entry.getFileName().toString().endsWith(RUN)) {
        continue;
      }
      try {
        JsonNode run = WireJson.MAPPER.readTree(entry.toFile());
        String batch = run.path("batch").asText("");
        versions[i] = run.path("version").asText("");
        if (!batch.isEmpty()) {
          places.computeIfAbsent(batch, b -> new ArrayList<>()).add(i);
        }
      } catch (IOException e) {
        // unreadable here: sent where it stands, and the server says what is wrong with it
      }
    }
    List<Path> ordered = new ArrayList<>(entries);
    for (List<Integer> at : places.values()) {
      List<Integer> byVersion = new ArrayList<>(at);
      byVersion.sort((a, b) -> VersionKey.compare(versions[a], versions[b]));
      for (int k = 0; k < at.size(); k++) {
        ordered.set(at.get(k), entries.get(byVersion.get(k)));
      }
    }
    return ordered;
  }

  public void sent(Path file) throws IOException {
    Path sent = Files.createDirectories(dir.resolve("sent"));
    move(file, sent.resolve(file.getFileName()));
  }

  public Path reject(Path file, int status, String problem) throws IOException {
    Path rejected = Files.createDirectories(dir.resolve("rejected"));
    Path target = rejected.resolve(file.getFileName());
    String name = file.getFileName().toString().replaceFirst("\\.(json|upload)$", "");
    String body = problem == null || problem.trim().isEmpty() ? "{\"status\": " + status + "}" : problem;
    Files.write(rejected.resolve(name + ".problem.json"), body.getBytes(StandardCharsets.UTF_8));
    move(file, target);
    return target;
  }

  private Path write(String name, byte[] content) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(name);
    Path tmp = dir.resolve(name + ".tmp");
    Files.write(tmp, content);
    move(tmp, file);
    return file;
  }

  private static boolean isEntry(String name) {
    return name.endsWith(RUN) || name.endsWith(FOREIGN);
  }

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

  /** Renames, trying again a few times: a failure that lasts gives the last attempt's error. */
  private void move(Path from, Path to) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        mover.move(from, to);
        return;
      } catch (NoSuchFileException e) {
        throw e;
      } catch (IOException e) {
        if (attempt >= retryMillis.length) {
          throw e;
        }
        pause(retryMillis[attempt], e);
      }
    }
  }

  private static void pause(long millis, IOException failure) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure;
    }
  }

  private static void atomicMove(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return Long.MAX_VALUE;
    }
  }
}
