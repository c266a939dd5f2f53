package org.perftrack.server.ingest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.perftrack.server.db.Json;
import tools.jackson.databind.JsonNode;

/** The real tool outputs the formats module is tested with (Maven runs tests in the module's directory). */
final class GoldenFiles {

  private static final Path GOLDEN = Path.of("../formats/src/test/resources/golden");

  private GoldenFiles() {}

  static byte[] bytes(String file) {
    try {
      return Files.readAllBytes(GOLDEN.resolve(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A golden tool folder as the agent sends it: {@code criterion/…} or asv's {@code results}. */
  static byte[] zip(String folder) {
    try {
      return org.perftrack.wire.FolderZip.zip(GOLDEN.resolve(folder), folder.startsWith("criterion") ? "criterion" : "asv");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode tree(String file) {
    return Json.MAPPER.readTree(bytes(file));
  }
}
