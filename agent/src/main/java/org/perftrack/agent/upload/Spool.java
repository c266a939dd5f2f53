package org.perftrack.agent.upload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.perftrack.formats.Json;
import org.perftrack.formats.RunUpload;

/**
 * Runs waiting for the server, one JSON file each, written before any upload so that nothing measured
 * is lost. Sent runs move to {@code sent/}; runs the server refused for good move to {@code rejected/}
 * next to a {@code .problem.json} holding the server's answer.
 */
public final class Spool {

  private final Path dir;

  public Spool(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  /** Writes the run atomically (a crash leaves the old file or the new one, never half of one). */
  public Path save(RunUpload run) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(run.id() + ".json");
    Path tmp = dir.resolve(run.id() + ".json.tmp");
    Files.write(tmp, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(run));
    move(tmp, file);
    return file;
  }

  /** The runs not yet on the server, oldest first. */
  public List<Path> pending() throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p))
          .sorted(Comparator.comparing(Spool::modified).thenComparing(Path::getFileName))
          .toList();
    }
  }

  public void sent(Path file) throws IOException {
    Path sent = Files.createDirectories(dir.resolve("sent"));
    move(file, sent.resolve(file.getFileName()));
  }

  public Path reject(Path file, int status, String problem) throws IOException {
    Path rejected = Files.createDirectories(dir.resolve("rejected"));
    Path target = rejected.resolve(file.getFileName());
    String name = file.getFileName().toString().replaceFirst("\\.json$", "");
    String body = problem == null || problem.isBlank() ? "{\"status\": " + status + "}" : problem;
    Files.writeString(rejected.resolve(name + ".problem.json"), body, StandardCharsets.UTF_8);
    move(file, target);
    return target;
  }

  private static void move(Path from, Path to) throws IOException {
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
