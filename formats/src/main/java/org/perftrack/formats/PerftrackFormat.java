package org.perftrack.formats;

import java.util.List;
import java.util.UUID;
import org.perftrack.wire.RunUpload;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;

/** Our own run JSON (what the agent spools and DESIGN.md documents); the context overrides what it sets. */
final class PerftrackFormat implements ResultFormat {

  @Override
  public String name() {
    return "perftrack";
  }

  @Override
  public RunUpload convert(byte[] content, String sourceName, RunContext context) throws FormatException {
    String seen = FormatSniffer.rejectOther(name(), content, sourceName);
    JsonNode root = JsonInput.read(content, sourceName);
    FormatSniffer.require(name(), seen, sourceName, "an object with \"product\", \"version\" and \"results\"");
    RunUpload run;
    try {
      run = JsonInput.MAPPER.treeToValue(root, RunUpload.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      StringBuilder path = new StringBuilder();
      for (JsonMappingException.Reference r : e instanceof JsonMappingException
          ? ((JsonMappingException) e).getPath() : java.util.Collections.<JsonMappingException.Reference>emptyList()) {
        if (r.getFieldName() != null) {
          path.append(path.length() == 0 ? "" : ".").append(r.getFieldName());
        } else if (r.getIndex() >= 0) {
          path.append('[').append(r.getIndex()).append(']');
        }
      }
      throw new FormatException(sourceName + ": not a perftrack run file: " + (path.length() == 0 ? "" : path + ": ")
          + JsonInput.scrub(e instanceof JsonProcessingException
              ? ((JsonProcessingException) e).getOriginalMessage() : e.getMessage()), e);
    }
    if (run.results() == null || run.results().isEmpty()) {
      throw new FormatException(sourceName + ": the run has no results");
    }
    requireFiniteSamples(run, sourceName);
    return new RunUpload(
        firstNonNull(context.runId(), run.id(), UUID.randomUUID().toString()),
        firstNonNull(context.product(), run.product()),
        firstNonNull(context.version(), run.version()),
        context.machine() != null ? overrideName(run.machine(), context.machine()) : run.machine(),
        run.suite(), run.batch(), run.startedAt(), run.finishedAt(), run.attributes(), run.results(), run.failures(),
        run.branch(), run.startPoint(), run.batchSize());
  }

  /** The parser takes a bare NaN (for tool files' sake); in a run file it is as wrong as the server would say. */
  private static void requireFiniteSamples(RunUpload run, String sourceName) throws FormatException {
    for (int i = 0; i < run.results().size(); i++) {
      List<Double> samples = run.results().get(i) == null ? null : run.results().get(i).samples();
      for (int j = 0; samples != null && j < samples.size(); j++) {
        if (samples.get(j) != null && !Double.isFinite(samples.get(j))) {
          throw new FormatException(sourceName + ": results[" + i + "].samples[" + j + "] is " + samples.get(j)
              + ", not a finite number");
        }
      }
    }
  }

  private static RunUpload.MachineInfo overrideName(RunUpload.MachineInfo m, String name) {
    if (m == null) {
      return RunUpload.MachineInfo.named(name);
    }
    return new RunUpload.MachineInfo(name, m.os(), m.cpu(), m.cores(), m.memoryMb(), m.attributes());
  }

  @SafeVarargs
  private static <T> T firstNonNull(T... values) {
    for (T v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }
}
