package org.perftrack.server.annotations;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    RunFacts head = facts(RUN, run).orElseThrow();
    facts(PREVIOUS_ON_MACHINE, machineId, run).ifPresent(before ->
        note(before, head, row -> row.machine() ? !row.key().startsWith("machine: clock.")
            : MACHINE_WIDE.contains(row.key()), null, machineId));
    facts(PREVIOUS_OF_VERSION, versionId, machineId, run).ifPresent(before ->
        note(before, head, row -> !row.machine() && TOOLCHAIN.contains(row.key()), productId, machineId));
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
  static final String RUN = COLUMNS + "WHERE r.id = ?";
  static final String PREVIOUS_ON_MACHINE = COLUMNS + """
      WHERE r.machine_id = ? AND r.id <> ? AND r.deletion_id IS NULL
      ORDER BY r.received_at DESC, r.started_at DESC LIMIT 1""";
  static final String PREVIOUS_OF_VERSION = COLUMNS + """
      WHERE r.version_id = ? AND r.machine_id = ? AND r.id <> ? AND r.deletion_id IS NULL
      ORDER BY r.received_at DESC, r.started_at DESC LIMIT 1""";

  private Optional<RunFacts> facts(String sql, Object... params) {
    return jdbc.sql(sql).params(params).query(EnvironmentNotes::facts).optional();
  }

  private static RunFacts facts(ResultSet rs, int row) throws SQLException {
    Environment.Facts f = new Environment.Facts(rs.getString("id"),
        Json.MAPPER.readValue(rs.getString("machine"), RunUpload.MachineInfo.class), rs.getString("suite"),
        rs.getString("batch"), rs.getString("attributes") == null ? Map.of()
            : Json.MAPPER.readValue(rs.getString("attributes"), STRING_MAP));
    return new RunFacts(f, rs.getTimestamp("started_at").toInstant());
  }
}
