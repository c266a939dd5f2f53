package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The change stamps of series: which transaction last wrote their detection points. */
@Repository
class SeriesStamps {

  private final JdbcClient jdbc;

  SeriesStamps(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * The change stamps of these series: set by every statement that writes their detection points, to the id of
   * the writing transaction. Read after the series' locks are held, in a statement of its own (its snapshot then
   * sees every commit of a writer that held them).
   */
  static final String STAMPS = "SELECT series_id, stamp FROM detection_stamp WHERE series_id = ANY(?::bigint[])";

  /** The change stamps of these series ({@link #STAMPS}); a series whose points were never written has none. */
  Map<Long, Long> stamps(List<Long> seriesIds) {
    Map<Long, Long> stamps = new HashMap<>();
    jdbc.sql(STAMPS).param(seriesIds.toArray(Long[]::new)).query((ResultSet rs) -> {
      stamps.put(rs.getLong(1), rs.getLong(2));
    });
    return stamps;
  }

  /**
   * Sets the stamps of these series to this transaction's (a writer of points that keeps no tails); one that is
   * this transaction's already is not written again (see {@code PointWrites}).
   */
  static final String STAMP = """
      INSERT INTO detection_stamp (series_id, stamp)
      SELECT DISTINCT id, txid_current() FROM unnest(?::bigint[]) AS s(id)
      ON CONFLICT (series_id) DO UPDATE SET stamp = EXCLUDED.stamp WHERE detection_stamp.stamp <> EXCLUDED.stamp""";

  void stamp(java.util.Collection<Long> seriesIds) {
    if (!seriesIds.isEmpty()) {
      jdbc.sql(STAMP).param(seriesIds.toArray(Long[]::new)).update();
    }
  }
}
