package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.perftrack.server.changepoint.Claim;
import org.perftrack.server.changepoint.Posterior;
import org.perftrack.server.changepoint.Segment;
import org.perftrack.server.changepoint.SegmentModel;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * What detection is unsure of, for the lab to settle by measuring again ({@code lab.Confirmer}): an open claim whose
 * series the change-point model ({@link SegmentModel}) judges unsure around it ({@link Doubt#unsure}). And what the
 * lab found, written to the claim's history.
 */
@Repository
public class UnsureClaims {

  /**
   * An unsure claim of one series: {@code suspects} are the versions the step may start at and the measured one
   * before each of them, in version order.
   */
  public record UnsureClaim(long regressionId, long seriesId, String product, String machine, String benchmark,
      String metric, List<String> suspects) {}

  /**
   * When the model's posterior is unsure, and which versions the lab measures again ({@code perftrack.lab.confirm.*}).
   *
   * @param low a probability at or below this is no doubt worth a job
   * @param high a probability at or above this is settled
   * @param suspectMass a version with at least this P(step at k) is a suspect, with the one before it
   * @param maxVersions the most versions of one series measured again
   */
  public record Doubt(double low, double high, double suspectMass, int maxVersions) {

    /**
     * Unsure: the best candidate's or any step's probability ({@link Posterior#unsure}), or the likeliest single
     * version's step mass (where a step that surely exists starts), strictly between low and high.
     */
    public boolean unsure(Posterior p) {
      return p.unsure(low, high) || inside(max(p.stepMass(), k -> true));
    }

    /**
     * Unsure of the step the model names nearest version {@code near} (detection's claim there): its probability,
     * or the largest step mass of a version nearer to it than to any other step the model names, strictly between
     * low and high. Another candidate elsewhere in the series is no doubt about this claim. When the model names no
     * step at all (or {@code near} is -1), as {@link #unsure(Posterior)}.
     */
    public boolean unsure(Posterior p, int near) {
      Claim own = near < 0 ? null : nearest(p, near);
      return own == null ? unsure(p)
          : inside(own.probability()) || inside(max(p.stepMass(), k -> nearest(p, k) == own));
    }

    /**
     * The indices to measure again, in order: each k with P(step at k) at least {@code suspectMass} and k - 1, the
     * likeliest first while they fit in {@code maxVersions}; empty when the posterior is settled.
     */
    public List<Integer> suspects(Posterior p) {
      return unsure(p) ? pick(p.stepMass(), k -> true) : List.of();
    }

    /**
     * As {@link #suspects(Posterior)} for the step the model names nearest {@code near} only: the versions nearer to
     * it than to any other step it names (the mass of a candidate elsewhere is that candidate's suspects, not this
     * claim's); empty when the model is sure of this step ({@link #unsure(Posterior, int)}).
     */
    public List<Integer> suspects(Posterior p, int near) {
      Claim own = near < 0 ? null : nearest(p, near);
      if (own == null) {
        return suspects(p);
      }
      return unsure(p, near) ? pick(p.stepMass(), k -> nearest(p, k) == own) : List.of();
    }

    private List<Integer> pick(double[] mass, IntPredicate of) {
      TreeSet<Integer> out = new TreeSet<>();
      IntStream.range(1, mass.length).filter(k -> mass[k] >= suspectMass && of.test(k)).boxed()
          .sorted(Comparator.comparingDouble(k -> -mass[k])).forEach(k -> {
            TreeSet<Integer> with = new TreeSet<>(out);
            with.add(k - 1);
            with.add(k);
            if (with.size() <= maxVersions) {
              out.addAll(with);
            }
          });
      return List.copyOf(out);
    }

    /** The step the model names nearest version {@code k} (the first of equally near ones); null when it names none. */
    static Claim nearest(Posterior p, int k) {
      Claim best = null;
      int distance = Integer.MAX_VALUE;
      for (Claim c : p.claims()) {
        int d = k < c.first() ? c.first() - k : k > c.last() ? k - c.last() : 0;
        if (d < distance) {
          best = c;
          distance = d;
        }
      }
      return best;
    }

    private boolean inside(double probability) {
      return probability > low && probability < high;
    }

    private static double max(double[] x, IntPredicate of) {
      double m = 0;
      for (int k = 0; k < x.length; k++) {
        m = of.test(k) ? Math.max(m, x[k]) : m;
      }
      return m;
    }
  }

  /** Versions of the series read on each side of a claim for the model's segment. */
  static final int SIDE = 12;

  private final JdbcClient jdbc;
  private final SegmentModel model;
  /** Claims judged settled, with the series' result count then: judged again only when runs come or go. */
  private final Map<Long, Long> settled = new ConcurrentHashMap<>();

  UnsureClaims(JdbcClient jdbc, DetectionProperties detection) {
    this.jdbc = jdbc;
    this.model = SegmentModel.of(detection.minChange());
  }

  /**
   * Open claims on machines whose lab agent takes confirm jobs, that the lab never confirmed and no bisection serves;
   * with detection's range: the measured versions from the one before its first suspect to its last.
   */
  static final String CANDIDATES = """
      SELECT rg.id, rg.series_id, p.name AS product, m.name AS machine, s.benchmark, s.metric,
             (SELECT count(*) FROM result r WHERE r.series_id = rg.series_id) AS results,
             ARRAY(SELECT pv.name FROM detection_point dp JOIN version pv ON pv.id = dp.version_id
                    WHERE dp.series_id = rg.series_id AND dp.sort_key <= lv.sort_key
                      AND dp.sort_key >= COALESCE((SELECT max(b.sort_key) FROM detection_point b
                                                    WHERE b.series_id = rg.series_id
                                                      AND b.sort_key < fv.sort_key), fv.sort_key)
                    ORDER BY dp.sort_key) AS range
        FROM regression rg
        JOIN version fv ON fv.id = COALESCE(rg.first_suspect_version_id, rg.version_id)
        JOIN version lv ON lv.id = COALESCE(rg.last_suspect_version_id, rg.version_id)
        JOIN series s ON s.id = rg.series_id
        JOIN product p ON p.id = s.product_id
        JOIN machine m ON m.id = s.machine_id
        JOIN lab_agent a ON a.product = p.name AND a.machine = m.name AND a.deletion_id IS NULL
                        AND 'confirm' = ANY (a.kinds)
       WHERE rg.status = 'open'
         AND NOT EXISTS (SELECT 1 FROM confirmation c WHERE c.regression_id = rg.id)
         AND NOT EXISTS (SELECT 1 FROM bisection_regression br WHERE br.regression_id = rg.id)
       ORDER BY rg.id""";

  private record Candidate(UnsureClaim claim, long results) {}

  /** The open claims the model is unsure of, each with its suspect versions (at least two). */
  public List<UnsureClaim> unsure(Doubt doubt) {
    List<Candidate> candidates = jdbc.sql(CANDIDATES).query((rs, i) -> new Candidate(new UnsureClaim(rs.getLong("id"),
        rs.getLong("series_id"), rs.getString("product"), rs.getString("machine"), rs.getString("benchmark"),
        rs.getString("metric"), List.of((String[]) rs.getArray("range").getArray())), rs.getLong("results"))).list();
    settled.keySet().retainAll(candidates.stream().map(c -> c.claim().regressionId()).toList());
    List<UnsureClaim> out = new ArrayList<>();
    for (Candidate c : candidates) {
      if (Long.valueOf(c.results()).equals(settled.get(c.claim().regressionId()))) {
        continue;
      }
      List<String> suspects = suspects(c.claim().regressionId(), c.claim().suspects(), doubt);
      if (suspects.size() >= 2) {
        UnsureClaim u = c.claim();
        out.add(new UnsureClaim(u.regressionId(), u.seriesId(), u.product(), u.machine(), u.benchmark(), u.metric(),
            suspects));
      } else {
        settled.put(c.claim().regressionId(), c.results());
      }
    }
    return out;
  }

  /** Whether the model is unsure of this claim's series now (empty when the claim is gone). */
  public Optional<Boolean> isUnsure(long regressionId, Doubt doubt) {
    return segment(regressionId).map(a -> a.segment().versions().size() >= 2
        && doubt.unsure(model.judge(a.segment()), a.claimed()));
  }

  /**
   * The model's suspects of this claim (not those of another candidate step in the series, {@link
   * Doubt#suspects(Posterior, int)}); with them, while they fit in {@code maxVersions}, detection's own range and the
   * version before it (what detection needs measured again to place the claim itself). None when the model is settled.
   */
  private List<String> suspects(long regressionId, List<String> range, Doubt doubt) {
    return segment(regressionId).map(a -> {
      Segment s = a.segment();
      List<Integer> byModel = doubt.suspects(model.judge(s), a.claimed());
      TreeSet<Integer> out = new TreeSet<>(byModel);
      List<String> names = s.versions().stream().map(Segment.Version::name).toList();
      TreeSet<Integer> with = new TreeSet<>(out);
      range.stream().map(names::indexOf).filter(k -> k >= 0).forEach(with::add);
      if (!byModel.isEmpty() && with.size() <= doubt.maxVersions()) {
        out = with;
      }
      return out.stream().map(names::get).toList();
    }).orElse(List.of());
  }


  /**
   * The series' runs around a claim: {@link #SIDE} measured versions before its first suspect, the suspects, and
   * {@link #SIDE} after its last; each run's positive samples (a summary-only result counts as one sample, its mean).
   */
  static final String SEGMENT = """
      WITH c AS (SELECT rg.series_id, rg.version_id, fv.sort_key AS first_key, lv.sort_key AS last_key
                   FROM regression rg
                   JOIN version fv ON fv.id = COALESCE(rg.first_suspect_version_id, rg.version_id)
                   JOIN version lv ON lv.id = COALESCE(rg.last_suspect_version_id, rg.version_id)
                  WHERE rg.id = ?),
      points AS (
        (SELECT dp.series_id, dp.version_id, dp.sort_key FROM detection_point dp, c
          WHERE dp.series_id = c.series_id AND dp.sort_key < c.first_key ORDER BY dp.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT dp.series_id, dp.version_id, dp.sort_key FROM detection_point dp, c
          WHERE dp.series_id = c.series_id AND dp.sort_key >= c.first_key AND dp.sort_key <= c.last_key)
        UNION ALL
        (SELECT dp.series_id, dp.version_id, dp.sort_key FROM detection_point dp, c
          WHERE dp.series_id = c.series_id AND dp.sort_key > c.last_key ORDER BY dp.sort_key LIMIT ?))
      SELECT v.name, CASE WHEN cardinality(r.samples) = 0 THEN ARRAY[r.mean] ELSE r.samples END AS samples,
             pt.version_id = c.version_id AS claimed
        FROM points pt CROSS JOIN c
        JOIN version v ON v.id = pt.version_id
        JOIN result r ON r.series_id = pt.series_id AND r.version_id = pt.version_id
       ORDER BY pt.sort_key, r.run_id""";

  private record RunRow(String version, double[] samples, boolean claimed) {}

  /** A claim's segment, and the index in it of the version detection holds the claim at (-1: not measured there). */
  record Around(Segment segment, int claimed) {}

  Optional<Around> segment(long regressionId) {
    List<RunRow> rows = jdbc.sql(SEGMENT).params(regressionId, SIDE, SIDE).query((rs, i) -> {
      Double[] boxed = (Double[]) rs.getArray("samples").getArray();
      return new RunRow(rs.getString("name"), java.util.Arrays.stream(boxed).mapToDouble(Double::doubleValue)
          .toArray(), rs.getBoolean("claimed"));
    }).list();
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    List<Segment.Version> versions = new ArrayList<>();
    List<double[]> runs = new ArrayList<>();
    int claimed = -1;
    for (int i = 0; i < rows.size(); i++) {
      RunRow row = rows.get(i);
      claimed = row.claimed() && claimed < 0 ? versions.size() : claimed;
      if (row.samples().length > 0 && java.util.Arrays.stream(row.samples()).allMatch(x -> x > 0)) {
        runs.add(row.samples());
      }
      if ((i + 1 == rows.size() || !rows.get(i + 1).version().equals(row.version())) && !runs.isEmpty()) {
        versions.add(new Segment.Version(row.version(), runs));
        runs = new ArrayList<>();
      }
    }
    return Optional.of(new Around(new Segment(versions, 0), Math.min(claimed, versions.size() - 1)));
  }

  static final String EVENT = """
      INSERT INTO regression_event (regression_id, action, reason, baseline_version, version, ratio, p_value)
      SELECT rg.id, ?, ?, bv.name, v.name, rg.ratio, rg.p_value
        FROM regression rg JOIN version bv ON bv.id = rg.baseline_version_id JOIN version v ON v.id = rg.version_id
       WHERE rg.id = ?""";

  /** The lab placed the claim: "placed at 1.5.21-1 after 2 re-runs of 1.5.20-1..1.5.22-1". */
  public void placed(long regressionId, String reason) {
    jdbc.sql(EVENT).params("placed", reason, regressionId).update();
  }
}
