package org.perftrack.server.detection;

import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The per-series locks every writer of detection points takes first. */
@Repository
class SeriesLocks {

  private final JdbcClient jdbc;

  SeriesLocks(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Serialises detection per series: two uploads touching one series must not both create the same
   * step. Transaction-scoped advisory locks keyed by the series id (nothing else in perftrack takes advisory
   * locks): unlike row locks they write nothing (no tuple update, no WAL) and they are released at commit or
   * rollback. Taken in id order, so two runs cannot deadlock.
   */
  static final String LOCK_SERIES = """
      SELECT count(pg_advisory_xact_lock(o.id))
      FROM (SELECT DISTINCT id FROM unnest(?::bigint[]) AS s(id) ORDER BY id) AS o""";

  void lockSeries(List<Long> seriesIds) {
    jdbc.sql(LOCK_SERIES).param(seriesIds.toArray(Long[]::new)).query(Long.class).single();
  }
}
