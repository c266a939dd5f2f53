package org.perftrack.agent.upload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.UUID;
import org.perftrack.wire.RunUpload;

/**
 * Our own run file (what {@code run --dry-run} prints, DESIGN.md's upload) read back for {@code upload}:
 * options override what it says, a file without an id gets one so that resends are the same run.
 */
public final class RunFiles {

  private RunFiles() {}

  public static RunUpload read(byte[] content, String source, String product, String version, String machine,
      String runId) throws RunFileException {
    RunUpload run;
    try {
      JsonNode root = WireJson.MAPPER.readTree(content);
      if (root == null || !root.isObject() || !root.has("product") || !root.has("version") || !root.has("results")) {
        throw new RunFileException(source + ": not a perftrack run file "
            + "(expected an object with \"product\", \"version\" and \"results\")");
      }
      run = WireJson.MAPPER.treeToValue(root, RunUpload.class);
    } catch (JsonProcessingException e) {
      throw new RunFileException(source + ": not a perftrack run file: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new RunFileException(source + ": cannot read: " + e.getMessage());
    }
    if (run.results() == null || run.results().isEmpty()) {
      throw new RunFileException(source + ": the run has no results");
    }
    return new RunUpload(
        first(runId, run.id(), UUID.randomUUID().toString()),
        first(product, run.product()),
        first(version, run.version()),
        machine != null ? rename(run.machine(), machine) : run.machine(),
        run.suite(), run.batch(), run.startedAt(), run.finishedAt(), run.attributes(), run.results(), run.failures(),
        run.branch(), run.startPoint(), run.batchSize());
  }

  private static RunUpload.MachineInfo rename(RunUpload.MachineInfo m, String name) {
    return m == null ? RunUpload.MachineInfo.named(name)
        : new RunUpload.MachineInfo(name, m.os(), m.cpu(), m.cores(), m.memoryMb(), m.attributes());
  }

  @SafeVarargs
  private static <T> T first(T... values) {
    for (T v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }
}
