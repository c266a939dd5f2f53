package org.perftrack.formats;

import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.ArrayList;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.perftrack.wire.FormatGuess;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Criterion.rs's folder {@code target/criterion}, sent as a zip of it: every {@code …/new/benchmark.json} with its
 * {@code sample.json} is a benchmark named by its {@code full_id} ({@code group/function/parameter}). Each of
 * Criterion's samples is one measurement of {@code iters[i]} iterations taking {@code times[i]} ns, so the sample
 * is {@code times[i] / iters[i]}: {@code time-per-iteration} in ns. A {@code throughput} of {@code Bytes} (or
 * {@code BytesDecimal}) or {@code Elements} adds {@code bytes-per-second} (B/s) or {@code elements-per-second}
 * per sample, higher is better. The {@code base/} and {@code change/} folders (Criterion's own comparison) are
 * not read. sample.json of 0.2 ({@code [[iters…], [times…]]}) and of 0.3 and later ({@code {"iters", "times"}})
 * are both read.
 */
final class CriterionFormat extends ForeignFormat<Map<String, byte[]>> {

  static final String NAME = "criterion";

  private static final Pattern WANTED = Pattern.compile("(.*/)?new/(benchmark|sample)\\.json");

  CriterionFormat() {
    super(NAME, "a zip of Criterion's target/criterion folder, with …/new/benchmark.json and …/new/sample.json"
        + " (agent: upload FOLDER)");
  }

  @Override
  Map<String, byte[]> parse(byte[] content, String sourceName) throws FormatException {
    if (content.length < 4 || content[0] != 'P' || content[1] != 'K') {
      String seen = FormatGuess.guess(content);
      if (NAME.equals(seen)) {
        throw new FormatException(sourceName + ": this is one file of a Criterion.rs folder; send the whole folder"
            + " target/criterion (agent: upload --product … --version … target/criterion; by hand: a zip of it)");
      }
      return Collections.emptyMap(); // the format check names what it is
    }
    return FolderFiles.unzip(content, sourceName, path -> WANTED.matcher(path).matches());
  }

  @Override
  void read(Map<String, byte[]> files, ForeignRun run, String sourceName) throws FormatException {
    Map<String, String> byName = new TreeMap<>();
    for (String path : files.keySet()) {
      if (path.endsWith("new/benchmark.json")) {
        String folder = path.substring(0, path.length() - "benchmark.json".length());
        JsonNode benchmark = JsonInput.read(files.get(path), sourceName + ": " + path);
        String name = benchmark.hasNonNull("full_id") ? benchmark.get("full_id").asText()
            : JsonInput.text(benchmark.get("title"), sourceName + ": " + path, "full_id");
        byName.put(name, folder);
      }
    }
    if (byName.isEmpty()) {
      throw new FormatException(sourceName + ": the zip holds no …/new/benchmark.json: not a Criterion.rs folder"
          + " (target/criterion) or no benchmark has run");
    }
    for (Map.Entry<String, String> e : byName.entrySet()) {
      addBenchmark(run, e.getKey(), e.getValue(), files);
    }
  }

  private static void addBenchmark(ForeignRun run, String name, String folder, Map<String, byte[]> files)
      throws FormatException {
    String source = run.source();
    byte[] sampleFile = files.get(folder + "sample.json");
    if (sampleFile == null) {
      throw new FormatException(source + ": " + folder + "benchmark.json has no sample.json beside it");
    }
    String where = source + ": " + folder + "sample.json";
    JsonNode sample = JsonInput.read(sampleFile, where);
    JsonNode iters = sample.isArray() ? sample.get(0) : sample.get("iters");
    JsonNode times = sample.isArray() ? sample.get(1) : sample.get("times");
    List<Double> n = JsonInput.numbers(iters, where, "iters");
    List<Double> t = JsonInput.numbers(times, where, "times");
    if (n.size() != t.size()) {
      throw new FormatException(where + ": " + n.size() + " iters but " + t.size() + " times");
    }
    List<Double> perIteration = new ArrayList<>(n.size());
    for (int i = 0; i < n.size(); i++) {
      if (n.get(i) <= 0) {
        throw new FormatException(where + ": iters[" + i + "] is " + n.get(i) + ", expected more than 0");
      }
      perIteration.add(t.get(i) / n.get(i));
    }
    run.add(name, "time-per-iteration", "ns", LOWER_IS_BETTER, perIteration);
    JsonNode throughput = JsonInput.read(files.get(folder + "benchmark.json"), source).path("throughput");
    addThroughput(run, name, throughput, perIteration);
  }

  private static void addThroughput(ForeignRun run, String name, JsonNode throughput, List<Double> perIteration)
      throws FormatException {
    for (String kind : Text.list("Bytes", "BytesDecimal", "Elements")) {
      if (throughput.has(kind)) {
        double perOp = JsonInput.number(throughput.get(kind), run.source(), "throughput." + kind);
        List<Double> rates = perIteration.stream().map(ns -> perOp / (ns * 1e-9)).collect(Collectors.toList());
        boolean bytes = kind.startsWith("Bytes");
        run.add(name, bytes ? "bytes-per-second" : "elements-per-second", bytes ? "B/s" : "elements/s",
            HIGHER_IS_BETTER, rates);
        return;
      }
    }
  }
}
