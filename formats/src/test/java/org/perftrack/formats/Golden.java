package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.perftrack.wire.FolderZip;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import com.fasterxml.jackson.databind.JsonNode;

/** The real tool outputs under src/test/resources/golden, and the lookups the converter tests share. */
final class Golden {

  static final RunContext CONTEXT = new RunContext("demo", "1.2.3", "ci-runner-1", null);

  private Golden() {}

  static byte[] bytes(String path) {
    try (InputStream in = Golden.class.getResourceAsStream("/golden/" + path)) {
      assertThat(in).as("golden file %s", path).isNotNull();
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A golden folder zipped as the agent sends it. */
  static byte[] zip(String folder) {
    try {
      java.nio.file.Path root = java.nio.file.Path.of(Golden.class.getResource("/golden/" + folder).toURI());
      return FolderZip.zip(root, folder.startsWith("criterion") ? "criterion" : "asv");
    } catch (IOException | java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static RunUpload convert(String format, byte[] content, String name) throws FormatException {
    return Formats.byName(format).convert(content, name, CONTEXT);
  }

  /** The file read independently of the converters, to compare their samples with the raw data. */
  static JsonNode tree(String path) {
    try {
      return JsonInput.MAPPER.readTree(bytes(path));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static RunUpload convert(String format, String path) throws FormatException {
    return Formats.byName(format).convert(bytes(path), path, CONTEXT);
  }

  static ResultUpload result(RunUpload run, String benchmark, String metric) {
    List<ResultUpload> found = run.results().stream()
        .filter(r -> r.benchmark().equals(benchmark) && r.metric().equals(metric)).toList();
    assertThat(found).as("results for %s / %s", benchmark, metric).hasSize(1);
    return found.get(0);
  }

  static List<Double> doubles(JsonNode array) {
    return array.valueStream().map(JsonNode::doubleValue).toList();
  }
}
