package org.perftrack.server.profiles;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.perftrack.server.db.Json;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;

/** The profile table. */
@Repository
class Profiles {

  private static final String COLUMNS = """
      id, job_id, product, machine, version, benchmark, operations, syscalls, counters, functions, missing, created_at,
      raw_syscalls IS NOT NULL AS has_raw_syscalls, raw_functions IS NOT NULL AS has_raw_functions
      """;

  private final JdbcClient jdbc;

  Profiles(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String INSERT = """
      INSERT INTO profile (job_id, product, machine, version, benchmark, operations, syscalls, counters, functions,
                           missing, raw_syscalls, raw_functions)
      VALUES (?, ?, ?, ?, ?, ?, CAST(? AS jsonb), CAST(? AS jsonb), CAST(? AS jsonb), ?, ?, ?)
      RETURNING id""";

  long insert(long jobId, String product, String machine, String version, String benchmark, long operations,
      List<StoredProfile.Syscall> syscalls, List<StoredProfile.Counter> counters, List<StoredProfile.Function> functions,
      List<String> missing, String rawSyscalls, String rawFunctions) {
    return jdbc.sql(INSERT).params(jobId, product, machine, version, benchmark, operations,
        Json.MAPPER.writeValueAsString(syscalls), Json.MAPPER.writeValueAsString(counters),
        Json.MAPPER.writeValueAsString(functions), missing.toArray(String[]::new), rawSyscalls, rawFunctions)
        .query(Long.class).single();
  }

  Optional<StoredProfile> find(long id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM profile WHERE id = ?").param(id).query(Profiles::map).optional();
  }

  static final String NEWEST = "SELECT " + COLUMNS + """
       FROM profile WHERE product = ? AND machine = ? AND benchmark = ? AND version = ?
       ORDER BY id DESC LIMIT 1""";

  /** The newest profile of a benchmark at a version on a machine. */
  Optional<StoredProfile> newest(String product, String machine, String benchmark, String version) {
    return jdbc.sql(NEWEST).params(product, machine, benchmark, version).query(Profiles::map).optional();
  }

  /** A benchmark of a machine profiled at both of two versions. */
  record Both(String machine, String benchmark) {}

  static final String BOTH = """
      SELECT a.machine, a.benchmark FROM profile a
       WHERE a.product = :product AND a.version = :base AND (CAST(:machine AS text) IS NULL OR a.machine = :machine)
         AND EXISTS (SELECT 1 FROM profile b WHERE b.product = a.product AND b.machine = a.machine
                        AND b.benchmark = a.benchmark AND b.version = :head)
       GROUP BY a.machine, a.benchmark ORDER BY a.benchmark, a.machine LIMIT :limit""";

  /** The benchmarks (of one machine, or of all when null) profiled at both versions, at most {@code limit}. */
  List<Both> both(String product, String machine, String base, String head, int limit) {
    return jdbc.sql(BOTH).param("product", product).param("machine", machine).param("base", base)
        .param("head", head).param("limit", limit)
        .query((rs, n) -> new Both(rs.getString("machine"), rs.getString("benchmark"))).list();
  }

  /**
   * The raw tracer output kept with a profile: {@code syscalls} (the strace table) or {@code functions} (perf's top
   * functions).
   */
  String rawText(long id, String part) {
    if (!"syscalls".equals(part) && !"functions".equals(part)) {
      throw new InvalidInput("part", "must be syscalls or functions");
    }
    find(id).orElseThrow(() -> new NotFound("no profile " + id));
    String raw = jdbc.sql("SELECT " + ("syscalls".equals(part) ? "raw_syscalls" : "raw_functions")
        + " FROM profile WHERE id = ?").param(id).query(String.class).optional().orElse(null);
    if (raw == null) {
      throw new NotFound("profile " + id + " keeps no raw " + part + " output (the tracer was missing)");
    }
    return raw;
  }

  private static final TypeReference<List<StoredProfile.Syscall>> SYSCALLS = new TypeReference<>() {};
  private static final TypeReference<List<StoredProfile.Counter>> COUNTERS = new TypeReference<>() {};
  private static final TypeReference<List<StoredProfile.Function>> FUNCTIONS = new TypeReference<>() {};

  static StoredProfile map(ResultSet rs, int row) throws SQLException {
    Array missing = rs.getArray("missing");
    return new StoredProfile(rs.getLong("id"), rs.getLong("job_id"), rs.getString("product"), rs.getString("machine"),
        rs.getString("version"), rs.getString("benchmark"), rs.getLong("operations"),
        Json.MAPPER.readValue(rs.getString("syscalls"), SYSCALLS), Json.MAPPER.readValue(rs.getString("counters"), COUNTERS),
        Json.MAPPER.readValue(rs.getString("functions"), FUNCTIONS), List.of((String[]) missing.getArray()),
        rs.getBoolean("has_raw_syscalls"), rs.getBoolean("has_raw_functions"), rs.getTimestamp("created_at").toInstant());
  }
}
