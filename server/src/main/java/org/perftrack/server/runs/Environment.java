package org.perftrack.server.runs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.perftrack.server.runs.RunQueries.StoredRunView;
import org.perftrack.wire.RunUpload;

/**
 * The two runs' environments side by side: the machine as each run described it, then the run's own
 * attributes (compiler, mount flags, CYGWIN variable…), with what differed marked. The regression page shows it;
 * the annotations note a machine's environment change with it.
 */
public record Environment(String baseRun, String headRun, List<Row> rows, int differences) {

  /** One fact of both runs; {@code machine} when it describes the machine rather than the run. */
  public record Row(String key, String base, String head, boolean differs, boolean machine) {

    /** Both runs said it and said different things (a fact one run left out is not a change). */
    public boolean changed() {
      return differs && base != null && head != null;
    }
  }

  /** What a run said of itself and its machine (a stored run, or the few columns of one). */
  public record Facts(String id, RunUpload.MachineInfo machine, String suite, String batch,
      Map<String, String> attributes) {

    static Facts of(StoredRunView run) {
      return run == null ? null : new Facts(run.id(), run.machine(), run.suite(), run.batch(), run.attributes());
    }
  }

  public static Environment of(StoredRunView base, StoredRunView head) {
    return of(Facts.of(base), Facts.of(head));
  }

  public static Environment of(Facts base, Facts head) {
    Map<String, Boolean> kinds = new LinkedHashMap<>();
    Map<String, String> b = describe(base, kinds);
    Map<String, String> h = describe(head, kinds);
    List<String> keys = new ArrayList<>(b.keySet());
    h.keySet().stream().filter(k -> !b.containsKey(k)).forEach(keys::add);
    List<Row> rows = keys.stream()
        .map(k -> new Row(k, b.get(k), h.get(k), !Objects.equals(b.get(k), h.get(k)), kinds.get(k))).toList();
    return new Environment(base == null ? null : base.id(), head == null ? null : head.id(), rows,
        (int) rows.stream().filter(Row::differs).count());
  }

  private static Map<String, String> describe(Facts run, Map<String, Boolean> kinds) {
    Map<String, String> d = new LinkedHashMap<>();
    if (run == null) {
      return d;
    }
    var m = run.machine();
    put(d, kinds, true, "OS", m.os());
    put(d, kinds, true, "CPU", m.cpu());
    put(d, kinds, true, "Cores", m.cores());
    put(d, kinds, true, "Memory (MB)", m.memoryMb());
    if (m.attributes() != null) {
      m.attributes().forEach((k, v) -> putNew(d, kinds, true, k, "machine: " + k, v));
    }
    put(d, kinds, false, "Suite", run.suite());
    put(d, kinds, false, "Batch", run.batch());
    if (run.attributes() != null) {
      run.attributes().forEach((k, v) -> putNew(d, kinds, false, k, k, v));
    }
    return d;
  }

  /** An attribute that repeats a row already shown (os beside OS, memoryMb beside Memory (MB)) is left out. */
  private static void putNew(Map<String, String> d, Map<String, Boolean> kinds, boolean machine, String name,
      String key, Object value) {
    String plain = plain(name);
    if (d.keySet().stream().noneMatch(k -> plain(k).equals(plain))) {
      put(d, kinds, machine, key, value);
    }
  }

  private static String plain(String key) {
    return key.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]", "");
  }

  private static void put(Map<String, String> d, Map<String, Boolean> kinds, boolean machine, String key,
      Object value) {
    d.put(key, value == null ? null : value.toString());
    kinds.putIfAbsent(key, machine);
  }
}
