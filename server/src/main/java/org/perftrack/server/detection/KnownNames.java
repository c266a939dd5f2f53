package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.perftrack.server.db.Rows;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * What never changes once written (a version's name and sort key, a series' names, unit and direction), cached by
 * id; an id of a rolled-back insert is never handed out again, so a cached entry can never be wrong.
 */
@Repository
class KnownNames {

  private final JdbcClient jdbc;

  KnownNames(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  private static final int CACHE_LIMIT = 200_000;
  private final Map<Long, VersionRef> versions = new ConcurrentHashMap<>();
  private final Map<Long, SeriesMeta> metas = new ConcurrentHashMap<>();

  static final String VERSIONS = "SELECT id, name, sort_key FROM version WHERE id = ANY(?::bigint[])";

  VersionRef version(long versionId) {
    return versions(List.of(versionId)).get(versionId);
  }

  /** The names and sort keys of these versions, from the cache or one query for those it lacks. */
  Map<Long, VersionRef> versions(java.util.Collection<Long> ids) {
    Map<Long, VersionRef> out = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (Long id : ids) {
      VersionRef v = versions.get(id);
      if (v == null) {
        missing.add(id);
      } else {
        out.put(id, v);
      }
    }
    if (!missing.isEmpty()) {
      jdbc.sql(VERSIONS).param(missing.toArray(Long[]::new)).query(VersionRef.class).list().forEach(v -> {
        out.put(v.id(), v);
        remember(versions, v.id(), v);
      });
    }
    return out;
  }

  /** A version whose name and sort key are known (just inserted). */
  void knownVersion(VersionRef v) {
    remember(versions, v.id(), v);
  }

  private static <V> void remember(Map<Long, V> cache, long id, V value) {
    if (cache.size() >= CACHE_LIMIT) {
      cache.clear();
    }
    cache.put(id, value);
  }

  static final String META = """
      SELECT s.id, p.name AS product, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction
      FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
      WHERE s.id = ANY(?::bigint[])""";

  Map<Long, SeriesMeta> metas(List<Long> seriesIds) {
    Map<Long, SeriesMeta> out = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (Long id : seriesIds) {
      SeriesMeta m = metas.get(id);
      if (m == null) {
        missing.add(id);
      } else {
        out.put(id, m);
      }
    }
    if (!missing.isEmpty()) {
      jdbc.sql(META).param(missing.toArray(Long[]::new)).query(Rows.of(SeriesMeta.class)).list().forEach(m -> {
        out.put(m.id(), m);
        remember(metas, m.id(), m);
      });
    }
    return out;
  }

  /** The metadata of one series, from the cache or one query. */
  SeriesMeta meta(long seriesId) {
    SeriesMeta m = metas.get(seriesId);
    if (m == null) {
      m = metas(List.of(seriesId)).get(seriesId);
    }
    return m;
  }

  /** Fills the cache of series metadata for these series (one query for those it lacks). */
  void prefetchMeta(List<Long> seriesIds) {
    metas(seriesIds);
  }
}
