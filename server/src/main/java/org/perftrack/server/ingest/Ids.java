package org.perftrack.server.ingest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.perftrack.server.db.Json;
import org.perftrack.server.db.Rows;
import org.perftrack.wire.VersionKey;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The ids of products, versions, machines and series, from a cache or from short statements of their own, run
 * before (outside) the transaction that stores a run: a new version or series is committed at once, so no
 * uploader waits on another's uncommitted insert of it, and the common case (all known) costs no round trip.
 * Only committed rows enter the caches. Series are never deleted and their ids, names, units and directions never
 * change, so their entries stay right; a purged version is forgotten ({@link #forgetVersions}); a machine's entry
 * lasts a minute, so that details another server wrote are written back here as before.
 */
@Component
class Ids {

  private static final int LIMIT = 100_000;
  private static final long MACHINE_NANOS = 60_000_000_000L;

  private final JdbcClient jdbc;
  private final org.perftrack.server.detection.DetectionService detection;
  private final Map<String, Long> products = new ConcurrentHashMap<>();
  private final Map<String, Long> versions = new ConcurrentHashMap<>();
  private final Map<String, CachedMachine> machines = new ConcurrentHashMap<>();
  private final Map<String, RunStore.SeriesRow> series = new ConcurrentHashMap<>();

  private record CachedMachine(RunUpload.MachineInfo info, long id, long at) {}

  private final DeletedNames deleted;

  Ids(JdbcClient jdbc, org.perftrack.server.detection.DetectionService detection, DeletedNames deleted) {
    this.jdbc = jdbc;
    this.detection = detection;
    this.deleted = deleted;
  }

  /** Refuses a run sent to a deleted product, machine or version (409 naming the field); see {@link DeletedNames}. */
  void refuseDeleted(RunUpload run) {
    deleted.refuse(run);
  }

  /** Refuses a branch build whose start point ({@code version} of its product) is deleted: a 409 naming it. */
  void refuseDeletedStartPoint(RunUpload run, String version) {
    deleted.refuseStartPoint(run.product(), version);
  }

  /** For each run, the deleted names it uses (null when none). */
  List<List<org.perftrack.server.problems.InvalidInput.FieldProblem>> deletedNames(List<RunUpload> runs) {
    return deleted.problems(runs);
  }

  /** After machines were renamed or merged: their names are looked up (or made) again. */
  void forgetMachines() {
    machines.clear();
  }

  /** After versions or products were purged for good: their names are looked up (or made) again. */
  void forgetVersions() {
    versions.clear();
    products.clear();
  }

  /** The ids a run is stored under, and its results in their series' units. */
  record RunIds(long productId, long versionId, long machineId, RunStore.Resolved series) {}

  /**
   * The ids of a run's product, version, machine and series, created where missing. The results that match
   * existing series are checked first: a result whose unit does not convert, or whose direction differs, refuses
   * the run (a 400 naming every misfit) before anything is created, so a refused run leaves nothing behind.
   */
  RunIds resolve(RunUpload run) {
    RunIds ids = resolveSeries(run);
    return new RunIds(ids.productId(), versionId(ids.productId(), run.version()), ids.machineId(), ids.series());
  }

  /**
   * As {@link #resolve} but for the version (its id is left 0): an import creates the new versions of a whole
   * batch's fitting lines at once afterwards ({@link #preloadVersions}).
   */
  RunIds resolveSeries(RunUpload run) {
    List<ResultUpload> results = run.results();
    Map<String, RunStore.SeriesRow> found = check(run);
    long productId = productId(run.product());
    long machineId = machineId(run.machine());
    if (found.size() < results.size()) {
      List<ResultUpload> missing = missing(results, found);
      jdbc.sql(INSERT_SERIES).params(productId, machineId,
          column(missing, ResultUpload::benchmark), column(missing, ResultUpload::metric),
          column(missing, ResultUpload::unit), column(missing, ResultUpload::direction)).update();
      found.putAll(find(productId, machineId, missing));
    }
    RunStore.Resolved resolved = RunStore.resolve(results, found);
    if (resolved.seriesIds().size() != results.size()) {
      throw new IllegalStateException("a series of this run was neither found nor created");
    }
    return new RunIds(productId, 0, machineId, resolved);
  }

  /**
   * The existing series of a run's results, checked: a result whose unit does not convert, or whose direction
   * differs, is a 400 naming every misfit. Creates nothing.
   */
  private Map<String, RunStore.SeriesRow> check(RunUpload run) {
    return existing(run).series();
  }

  /** What exists of a run's product, machine and series (ids null, series absent when not). */
  record Existing(Long productId, Long machineId, Map<String, RunStore.SeriesRow> series) {}

  /**
   * The existing product, machine and series of a run's results, checked: a result whose unit does not convert,
   * or whose direction differs, is a 400 naming every misfit. Creates nothing (a branch run uses only this).
   */
  Existing existing(RunUpload run) {
    List<ResultUpload> results = run.results();
    Long product = products.get(run.product());
    if (product == null) {
      product = jdbc.sql(FIND_PRODUCT).param(run.product()).query(Long.class).optional().orElse(null);
    }
    Long machine = machineIdByName(run.machine().name());
    Map<String, RunStore.SeriesRow> found = new HashMap<>();
    if (product != null && machine != null) {
      found.putAll(known(product, machine, results));
      if (found.size() < results.size()) {
        found.putAll(find(product, machine, missing(results, found)));
      }
      RunStore.resolve(results, found); // checks the results of existing series only
    }
    return new Existing(product, machine, found);
  }

  private static List<ResultUpload> missing(List<ResultUpload> results, Map<String, RunStore.SeriesRow> found) {
    return results.stream().filter(r -> !found.containsKey(RunStore.key(r))).toList();
  }

  static final String FIND_PRODUCT = "SELECT id FROM product WHERE name = ?";
  static final String INSERT_PRODUCT = "INSERT INTO product (name) VALUES (?) ON CONFLICT (name) DO NOTHING RETURNING id";

  long productId(String name) {
    Long id = products.get(name);
    if (id == null) {
      id = jdbc.sql(FIND_PRODUCT).param(name).query(Long.class).optional()
          .or(() -> jdbc.sql(INSERT_PRODUCT).param(name).query(Long.class).optional())
          .orElseGet(() -> jdbc.sql(FIND_PRODUCT).param(name).query(Long.class).single());
      put(products, name, id);
    }
    return id;
  }

  static final String FIND_VERSION = "SELECT id FROM version WHERE product_id = ? AND name = ?";
  static final String INSERT_VERSION = """
      INSERT INTO version (product_id, name, sort_key) VALUES (?, ?, ?)
      ON CONFLICT (product_id, name) DO NOTHING RETURNING id""";

  long versionId(long productId, String name) {
    String key = productId + "\0" + name;
    Long id = versions.get(key);
    if (id == null) {
      // the insert first: a version this server has not seen is most often new (a CI build), and the insert that
      // finds it there already costs no more than the look-up (it only uses up a sequence number)
      id = created(productId, name)
          .orElseGet(() -> jdbc.sql(FIND_VERSION).params(productId, name).query(Long.class).single());
      put(versions, key, id);
    }
    return id;
  }

  /** Inserts a version; detection learns its sort key from here (not from a query of its own). */
  private java.util.Optional<Long> created(long productId, String name) {
    String sortKey = VersionKey.of(name);
    java.util.Optional<Long> id = jdbc.sql(INSERT_VERSION).params(productId, name, sortKey).query(Long.class)
        .optional();
    id.ifPresent(v -> detection.knownVersion(v, name, sortKey));
    return id;
  }

  static final String FIND_VERSIONS = """
      SELECT v.id, v.name FROM version v JOIN unnest(?::text[]) AS k(name) ON v.name = k.name
      WHERE v.product_id = ?""";
  static final String INSERT_VERSIONS = """
      INSERT INTO version (product_id, name, sort_key) SELECT ?, * FROM unnest(?::text[], ?::text[])
      ON CONFLICT (product_id, name) DO NOTHING""";

  /**
   * Makes sure the ids of these versions of a product are cached, creating the missing ones with one statement
   * (an import brings many new versions at once: one commit for all of them instead of one each).
   */
  void preloadVersions(String product, java.util.Collection<String> names) {
    long productId = productId(product);
    List<String> missing = names.stream().distinct().filter(n -> !versions.containsKey(productId + "\0" + n)).toList();
    if (missing.isEmpty()) {
      return;
    }
    String[] wanted = missing.toArray(String[]::new);
    Map<String, Long> found = new HashMap<>();
    jdbc.sql(FIND_VERSIONS).params(wanted, productId).query((java.sql.ResultSet rs) -> {
      found.put(rs.getString(2), rs.getLong(1));
    });
    if (found.size() < wanted.length) {
      List<String> create = missing.stream().filter(n -> !found.containsKey(n)).toList();
      jdbc.sql(INSERT_VERSIONS).params(productId, create.toArray(String[]::new),
          create.stream().map(VersionKey::of).toArray(String[]::new)).update();
      jdbc.sql(FIND_VERSIONS).params(wanted, productId).query((java.sql.ResultSet rs) -> {
        found.put(rs.getString(2), rs.getLong(1));
      });
    }
    found.forEach((name, id) -> put(versions, productId + "\0" + name, id));
  }

  static final String FIND_MACHINE = """
      SELECT id FROM machine WHERE name = ? AND os IS NOT DISTINCT FROM ? AND cpu IS NOT DISTINCT FROM ?
        AND cores IS NOT DISTINCT FROM ? AND memory_mb IS NOT DISTINCT FROM ? AND attributes = CAST(? AS jsonb)""";
  static final String UPSERT_MACHINE = """
      INSERT INTO machine (name, os, cpu, cores, memory_mb, attributes) VALUES (?, ?, ?, ?, ?, ?::jsonb)
      ON CONFLICT (name) DO UPDATE SET os = coalesce(excluded.os, machine.os), cpu = coalesce(excluded.cpu, machine.cpu),
        cores = coalesce(excluded.cores, machine.cores), memory_mb = coalesce(excluded.memory_mb, machine.memory_mb),
        attributes = CASE WHEN excluded.attributes = '{}'::jsonb THEN machine.attributes ELSE excluded.attributes END,
        last_seen = now()
      RETURNING id""";

  static final String MACHINE_BY_NAME = "SELECT id FROM machine WHERE name = ?";

  /** The id of the machine of this name, null when there is none (a machine keeps its id for its name). */
  private Long machineIdByName(String name) {
    CachedMachine cached = machines.get(name);
    return cached != null ? Long.valueOf(cached.id())
        : jdbc.sql(MACHINE_BY_NAME).param(name).query(Long.class).optional().orElse(null);
  }

  /**
   * The machine's id; creates it, or updates it to what this run says about it when that changed. A fact the run
   * leaves out (a run that sends only the name) keeps the last one known.
   */
  long machineId(RunUpload.MachineInfo m) {
    long now = System.nanoTime();
    CachedMachine cached = machines.get(m.name());
    if (cached != null && cached.info().equals(m) && now - cached.at() < MACHINE_NANOS) {
      return cached.id();
    }
    String attributes = Json.MAPPER.writeValueAsString(m.attributes() == null ? Map.of() : m.attributes());
    Object[] params = {m.name(), m.os(), m.cpu(), m.cores(), m.memoryMb(), attributes};
    Optional<Long> found = jdbc.sql(FIND_MACHINE).params(params).query(Long.class).optional();
    long id = found.orElseGet(() -> jdbc.sql(UPSERT_MACHINE).params(params).query(Long.class).single());
    put(machines, m.name(), new CachedMachine(m, id, now));
    return id;
  }

  static final String FIND_SERIES = """
      SELECT s.id, s.benchmark, s.metric, s.unit, s.direction
      FROM series s JOIN unnest(?::text[], ?::text[]) AS k(benchmark, metric)
        ON s.benchmark = k.benchmark AND s.metric = k.metric
      WHERE s.product_id = ? AND s.machine_id = ?""";
  static final String INSERT_SERIES = """
      INSERT INTO series (product_id, machine_id, benchmark, metric, unit, direction)
      SELECT ?, ?, * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[])
      ON CONFLICT (product_id, machine_id, benchmark, metric) DO NOTHING""";

  /** The series of these results that the cache knows, by {@link RunStore#key}. */
  private Map<String, RunStore.SeriesRow> known(long productId, long machineId, List<ResultUpload> results) {
    Map<String, RunStore.SeriesRow> out = new HashMap<>();
    String prefix = productId + "/" + machineId + "\0";
    for (ResultUpload r : results) {
      RunStore.SeriesRow s = series.get(prefix + RunStore.key(r));
      if (s != null) {
        out.put(RunStore.key(r), s);
      }
    }
    return out;
  }

  private Map<String, RunStore.SeriesRow> find(long productId, long machineId, List<ResultUpload> results) {
    Map<String, RunStore.SeriesRow> byKey = new HashMap<>();
    String prefix = productId + "/" + machineId + "\0";
    jdbc.sql(FIND_SERIES)
        .params(column(results, ResultUpload::benchmark), column(results, ResultUpload::metric), productId, machineId)
        .query(Rows.of(RunStore.SeriesRow.class)).list()
        .forEach(s -> {
          String key = s.benchmark() + '\0' + s.metric();
          byKey.put(key, s);
          put(series, prefix + key, s);
        });
    return byKey;
  }

  private static String[] column(List<ResultUpload> results, java.util.function.Function<ResultUpload, String> f) {
    return results.stream().map(f).toArray(String[]::new);
  }

  /** Caches a committed row: at once outside a transaction, after its commit inside one. */
  private static <V> void put(Map<String, V> cache, String key, V value) {
    if (TransactionSynchronizationManager.isSynchronizationActive()) {
      TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
        @Override
        public void afterCommit() {
          keep(cache, key, value);
        }
      });
    } else {
      keep(cache, key, value);
    }
  }

  private static <V> void keep(Map<String, V> cache, String key, V value) {
    if (cache.size() >= LIMIT) {
      cache.clear();
    }
    cache.put(key, value);
  }
}
