package org.perftrack.formats;

import java.util.ArrayList;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.regex.Pattern;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * asv (airspeed velocity): one result file of {@code .asv/results/MACHINE/COMMIT-ENV.json}, alone or in a zip of
 * the results folder with its {@code benchmarks.json} (which gives units and parameter names). Result files of
 * format 2 (asv 0.5 and newer, rows by {@code result_columns}) and format 1 are read. A parameterised benchmark
 * becomes one benchmark per combination ({@code suite.time_sort(n=10, kind='int')}). The samples are asv's raw
 * samples where it kept them ({@code asv run --record-samples}); otherwise the result (asv's median) is one
 * sample, and the run's note says so. The unit comes from {@code benchmarks.json} or, without it, from the
 * name: {@code time_} s, {@code mem_}/{@code peakmem_} B, {@code track_} 1; lower is better. A failed combination
 * ({@code null}) is a failure.
 */
final class AsvFormat extends ForeignFormat<Map<String, byte[]>> {

  static final String NAME = "asv";

  private static final Pattern WANTED = Pattern.compile(".*\\.json");

  AsvFormat() {
    super(NAME, "an asv result file (.asv/results/MACHINE/COMMIT-ENV.json) or a zip of .asv/results");
  }

  @Override
  Map<String, byte[]> parse(byte[] content, String sourceName) throws FormatException {
    if (content.length > 1 && content[0] == 'P' && content[1] == 'K') {
      return FolderFiles.unzip(content, sourceName, path -> WANTED.matcher(path).matches());
    }
    JsonInput.read(content, sourceName);
    return Collections.singletonMap(sourceName, content);
  }

  @Override
  void read(Map<String, byte[]> files, ForeignRun run, String sourceName) throws FormatException {
    JsonNode descriptions = MissingNode.getInstance();
    List<String> resultFiles = new ArrayList<>();
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      String name = file.getKey().substring(file.getKey().lastIndexOf('/') + 1);
      if (name.equals("benchmarks.json")) {
        descriptions = JsonInput.read(file.getValue(), sourceName + ": " + file.getKey());
      } else if (!name.equals("machine.json")) {
        resultFiles.add(file.getKey());
      }
    }
    if (resultFiles.size() != 1) {
      throw new FormatException(sourceName + ": " + (resultFiles.isEmpty() ? "no asv result file"
          : resultFiles.size() + " result files (" + String.join(", ", resultFiles.subList(0, Math.min(5, resultFiles.size())))
          + (resultFiles.size() > 5 ? ", …" : "") + ")") + "; a run is one commit in one environment: send one"
          + " result file, or a folder that holds only it and benchmarks.json");
    }
    String path = resultFiles.get(0);
    String where = path.equals(sourceName) ? sourceName : sourceName + ": " + path;
    JsonNode result = JsonInput.read(files.get(path), where);
    new AsvResults(run, where, descriptions).read(result);
  }
}
