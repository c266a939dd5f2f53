package org.perftrack.server.summaries;

import java.sql.Array;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.perftrack.server.detection.Regression;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * What happened to the recently changed summaries, moment by moment (the summaries feed): each opened, grew (the
 * members one upload added), had a member placed (the lab or a later version narrowed its step to one version) or
 * was withdrawn. Read from the summary tables and the members' history as they stand, so a moment's key stays the
 * same however often it is read.
 */
@Component
public class SummaryMoments {

  /** How many summaries, the most recently changed first, a feed looks at. */
  static final int SUMMARIES = 50;

  public enum Kind { OPENED, GREW, PLACED, WITHDRAWN }

  /**
   * A moment: {@code key} unique and stable within its summary, {@code about} the members it concerns, {@code said}
   * what detection said of it (where a placed step was before, why a summary was withdrawn) or null.
   */
  public record Moment(Kind kind, String key, Instant at, Summary summary, List<Regression> about, String said) {}

  /** The members one upload added to a summary: those of its opening upload, or a later one's. */
  record Joined(long summaryId, String run, boolean opening, OffsetDateTime at, List<Long> members) {}

  private final JdbcClient jdbc;
  private final Summaries summaries;

  SummaryMoments(JdbcClient jdbc, Summaries summaries) {
    this.jdbc = jdbc;
    this.summaries = summaries;
  }

  static final String RECENT = """
      SELECT su.id FROM summary su JOIN product p ON p.id = su.product_id AND p.deletion_id IS NULL
      WHERE (CAST(:product AS text) IS NULL OR p.name = :product)
      ORDER BY su.updated_at DESC, su.id DESC
      LIMIT :limit""";

  static final String JOINED = """
      SELECT sm.summary_id, sm.added_by_run::text AS run,
             coalesce(sm.added_by_run = su.opened_by_run, false) AS opening, min(sm.added_at) AS at,
             array_agg(sm.regression_id ORDER BY sm.regression_id) AS members
      FROM summary_member sm JOIN summary su ON su.id = sm.summary_id
      WHERE sm.summary_id = ANY(?::bigint[])
      GROUP BY sm.summary_id, sm.added_by_run, su.opened_by_run""";

  /**
   * The moments of the product's (null: any product's) most recently changed summaries, newest first; with a
   * {@code machine}, only the moments of members on it (a withdrawn summary has none left, so it shows only
   * without one).
   */
  public List<Moment> recent(String product, String machine) {
    List<Long> ids = jdbc.sql(RECENT).param("product", product).param("limit", SUMMARIES).query(Long.class).list();
    if (ids.isEmpty()) {
      return List.of();
    }
    Map<Long, List<Joined>> joined = jdbc.sql(JOINED).param(ids.toArray(Long[]::new))
        .query((rs, n) -> new Joined(rs.getLong(1), rs.getString(2), rs.getBoolean(3),
            rs.getObject(4, OffsetDateTime.class), longs(rs.getArray(5))))
        .list().stream().collect(Collectors.groupingBy(Joined::summaryId));
    List<Moment> out = new ArrayList<>();
    for (long id : ids) {
      summaries.find(id).ifPresent(s -> out.addAll(of(s, joined.getOrDefault(id, List.of()), machine)));
    }
    out.sort(Comparator.comparing(Moment::at).reversed());
    return out;
  }

  private static List<Moment> of(Summary s, List<Joined> joined, String machine) {
    Map<Long, Regression> byId = s.members().stream().collect(Collectors.toMap(Regression::id, Function.identity()));
    List<Moment> out = new ArrayList<>();
    List<Regression> opening = joined.stream().filter(Joined::opening).flatMap(j -> members(j, byId)).toList();
    out.add(new Moment(Kind.OPENED, "opened", s.createdAt(), s, opening, null));
    for (Joined j : joined) {
      if (!j.opening()) {
        out.add(new Moment(Kind.GREW, "grew-" + (j.run() == null ? j.at().toInstant().toEpochMilli() : j.run()),
            j.at().toInstant(), s, members(j, byId).toList(), null));
      }
    }
    for (Regression m : s.members()) {
      m.history().stream().filter(e -> "placed".equals(e.action())).forEach(e -> out.add(new Moment(Kind.PLACED,
          "placed-" + m.id() + "-" + e.at().toEpochMilli(), e.at(), s, List.of(m), e.reason())));
    }
    if (s.status() == Regression.Status.WITHDRAWN) {
      out.add(new Moment(Kind.WITHDRAWN, "withdrawn-" + s.updatedAt().toEpochMilli(), s.updatedAt(), s, List.of(),
          s.withdrawnReason()));
    }
    if (machine == null) {
      return out;
    }
    return out.stream().map(m -> new Moment(m.kind(), m.key(), m.at(), m.summary(),
            m.about().stream().filter(r -> machine.equals(r.machine())).toList(), m.said()))
        .filter(m -> !m.about().isEmpty()).toList();
  }

  private static java.util.stream.Stream<Regression> members(Joined j, Map<Long, Regression> byId) {
    return j.members().stream().map(byId::get).filter(Objects::nonNull);
  }

  private static List<Long> longs(Array a) throws java.sql.SQLException {
    return Arrays.stream((Long[]) a.getArray()).toList();
  }
}
