package org.perftrack.server.regressions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.perftrack.server.runs.RunQueries.StoredRunView;

/**
 * The two runs' environments side by side: the machine as each run described it, then the run's own
 * attributes (compiler, mount flags, CYGWIN variable…), with what differed marked.
 */
public record Environment(String baseRun, String headRun, List<Row> rows, int differences) {

  public record Row(String key, String base, String head, boolean differs) {}

  static Environment of(StoredRunView base, StoredRunView head) {
    Map<String, String> b = describe(base);
    Map<String, String> h = describe(head);
    List<String> keys = new ArrayList<>(b.keySet());
    h.keySet().stream().filter(k -> !b.containsKey(k)).forEach(keys::add);
    List<Row> rows = keys.stream().map(k -> new Row(k, b.get(k), h.get(k), !Objects.equals(b.get(k), h.get(k)))).toList();
    return new Environment(base == null ? null : base.id(), head == null ? null : head.id(), rows,
        (int) rows.stream().filter(Row::differs).count());
  }

  private static Map<String, String> describe(StoredRunView run) {
    Map<String, String> d = new LinkedHashMap<>();
    if (run == null) {
      return d;
    }
    var m = run.machine();
    put(d, "OS", m.os());
    put(d, "CPU", m.cpu());
    put(d, "Cores", m.cores());
    put(d, "Memory (MB)", m.memoryMb());
    if (m.attributes() != null) {
      m.attributes().forEach((k, v) -> put(d, "machine: " + k, v));
    }
    put(d, "Suite", run.suite());
    put(d, "Batch", run.batch());
    run.attributes().forEach((k, v) -> put(d, k, v));
    return d;
  }

  private static void put(Map<String, String> d, String key, Object value) {
    d.put(key, value == null ? null : value.toString());
  }
}
