package org.perftrack.server.annotations;

import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.perftrack.server.db.Json;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.ingest.RunWatch;
import org.perftrack.server.runs.Environment;
import org.perftrack.wire.RunUpload;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;

/**
 * Notes a machine's environment change once: a new run whose machine facts (OS, CPU, cores, memory, the machine
 * attributes such as the antivirus or the Windows build) or agent version differ from the machine's previous run, or
 * whose toolchain (the compiler of the installation) differs from the previous run of the same version on that
 * machine, becomes an environment note at the run's start: "agent saw antivirus NOD32 2.70.39 → 2.70.40". The
 * comparison is the regression page's {@link Environment}; a fact one of the runs left out is not a change, and the
 * measured clock resolutions ({@code clock.*}) vary by themselves, so they are not compared.
 */
@Component
class EnvironmentNotes implements RunWatch {

  /** Run attributes that belong to the installation measured, compared with the same version's previous run. */
  static final Set<String> TOOLCHAIN = Set.of("compiler", "cc", "toolchain");
  /** Run attributes that belong to the machine, compared with the machine's previous run whatever it measured. */
  static final Set<String> MACHINE_WIDE = Set.of("agent");
  static final int MAX_VALUE = 60;

  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  private final JdbcClient jdbc;
  private final AnnotationStore store;
  private final Audit audit;

  EnvironmentNotes(JdbcClient jdbc, AnnotationStore store, Audit audit) {
    this.jdbc = jdbc;
    this.store = store;
    this.audit = audit;
  }

  record RunFacts(Environment.Facts facts, Instant startedAt) {}

  @Override
  public void stored(UUID run, long productId, long versionId, long machineId) {
    // one statement for the run and the two it is compared with; their JSON is parsed only where its text differs
    Map<String, Row> rows = new java.util.HashMap<>();
    jdbc.sql(RUNS).params(run, machineId, run, versionId, machineId, run).query((ResultSet rs) -> {
      rows.put(rs.getString("which"), new Row(rs.getString("id"), rs.getString("machine"), rs.getString("suite"),
          rs.getString("batch"), rs.getString("attributes"), rs.getTimestamp("started_at").toInstant()));
    });
    Row head = rows.get("run");
    Row onMachine = rows.get("machine");
    if (onMachine != null && !onMachine.sameFacts(head)) {
      note(onMachine.facts(), head.facts(), row -> row.machine() ? !row.key().startsWith("machine: clock.")
          : MACHINE_WIDE.contains(row.key()), null, machineId);
    }
    Row ofVersion = rows.get("version");
    if (ofVersion != null && !ofVersion.sameFacts(head)) {
      note(ofVersion.facts(), head.facts(), row -> !row.machine() && TOOLCHAIN.contains(row.key()), productId,
          machineId);
    }
  }

  /** A run's facts as stored (JSON text); parsed when compared. */
  private record Row(String id, String machine, String suite, String batch, String attributes, Instant startedAt) {

    /** The same machine facts and attributes: no note can come of comparing the two. */
    boolean sameFacts(Row other) {
      return machine.equals(other.machine) && java.util.Objects.equals(attributes, other.attributes);
    }

    RunFacts facts() {
      return new RunFacts(new Environment.Facts(id, Json.MAPPER.readValue(machine, RunUpload.MachineInfo.class),
          suite, batch, attributes == null ? Map.of() : Json.MAPPER.readValue(attributes, STRING_MAP)), startedAt);
    }
  }

  private void note(RunFacts before, RunFacts head, java.util.function.Predicate<Environment.Row> watched,
      Long productId, long machineId) {
    List<Environment.Row> changed = Environment.of(before.facts(), head.facts()).rows().stream()
        .filter(Environment.Row::changed).filter(watched).toList();
    if (changed.isEmpty()) {
      return;
    }
    String subject = changed.stream().map(EnvironmentNotes::name).collect(Collectors.joining(", "));
    String text = text(changed);
    UUID headId = UUID.fromString(head.facts().id());
    store.insert(new AnnotationStore.Row(Annotation.Kind.ENVIRONMENT, head.startedAt(), productId, machineId, null,
            text, null, subject, headId, UUID.fromString(before.facts().id()), "agent"))
        .ifPresent(id -> audit.record("agent", "noted", "annotation " + id, text));
  }

  /** "agent saw antivirus NOD32 2.70.39 → 2.70.40; OS Windows XP SP2 → Windows XP SP3", at most 300 characters. */
  static String text(List<Environment.Row> changed) {
    List<String> parts = new ArrayList<>();
    for (Environment.Row r : changed) {
      parts.add(name(r) + " " + shorten(r.base()) + " → " + shorten(r.head()));
    }
    String text = "agent saw " + String.join("; ", parts);
    return text.length() <= Annotations.MAX_TEXT ? text : text.substring(0, Annotations.MAX_TEXT - 1) + "…";
  }

  private static String name(Environment.Row r) {
    return r.key().startsWith("machine: ") ? r.key().substring("machine: ".length()) : r.key();
  }

  private static String shorten(String value) {
    return value.length() <= MAX_VALUE ? value : value.substring(0, MAX_VALUE - 1) + "…";
  }

  static final String COLUMNS = """
      SELECT r.id::text AS id, r.machine_snapshot::text AS machine, r.suite, r.batch::text AS batch,
             r.attributes::text AS attributes, coalesce(r.started_at, r.received_at) AS started_at
      FROM run r
      """;
  /** The run, the machine's previous run and the previous run of its version on the machine, named by "which". */
  static final String RUNS = "SELECT 'run' AS which, q.* FROM (" + COLUMNS + "WHERE r.id = ?) q"
      + " UNION ALL SELECT 'machine', q.* FROM (" + COLUMNS + """
      WHERE r.machine_id = ? AND r.id <> ? AND r.deletion_id IS NULL
      ORDER BY r.received_at DESC, r.started_at DESC LIMIT 1) q""" + " UNION ALL SELECT 'version', q.* FROM (" + COLUMNS
      + """
      WHERE r.version_id = ? AND r.machine_id = ? AND r.id <> ? AND r.deletion_id IS NULL
      ORDER BY r.received_at DESC, r.started_at DESC LIMIT 1) q""";
}
