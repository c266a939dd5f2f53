package org.perftrack.server.compare;

import java.util.List;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.stats.Robust;
import org.perftrack.server.web.Wording;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The compare page when base and head name products ({@code linux@6.1.0} against
 * {@code cygwin@1.5.24-2}): the overhead of the layer per benchmark, secondary metrics beside their
 * benchmark's primary one. Without a machine, the machines that measured both are offered.
 */
@Service
class OverheadPage {

  /** {@code problem} set (and the rest empty) when a side is unknown or not measured on the machine. */
  record Page(String base, String head, String machine, String baseMachine, List<String> machines,
      List<CompareTable.Row> rows,
      double middle, String problem) {

    /** The layer's product, for links to its series pages. */
    public String headProduct() {
      return head == null ? null : head.split("@", 2)[0];
    }

    /** "×45", "×4.7", "×1.23" as summaries and mails word it; below 1 "12.5× less". */
    public String ratio(double r) {
      return Wording.ratio(r);
    }
  }

  static final String MACHINES = """
      SELECT m.name FROM run r JOIN machine m ON m.id = r.machine_id JOIN version v ON v.id = r.version_id
      JOIN product p ON p.id = r.product_id
      WHERE ((p.name = ? AND v.name = ?) OR (p.name = ? AND v.name = ?))
        AND r.deletion_id IS NULL AND v.deletion_id IS NULL AND m.deletion_id IS NULL
      GROUP BY m.name HAVING count(DISTINCT p.name) = 2 ORDER BY m.name""";

  private final Overhead overhead;
  private final JdbcClient jdbc;
  private final DetectionProperties detection;

  OverheadPage(Overhead overhead, JdbcClient jdbc, DetectionProperties detection) {
    this.overhead = overhead;
    this.jdbc = jdbc;
    this.detection = detection;
  }

  Page build(String base, String head, String machine, String baseMachine) {
    if (!Overhead.isProductAtVersion(base) || !Overhead.isProductAtVersion(head)) {
      return problem(base, head, machine, baseMachine, List.of(),
          "To compare two products, name both as product@version, e.g. base=linux@6.1.0&head=cygwin@1.5.24-2.");
    }
    String[] b = base.split("@", 2);
    String[] h = head.split("@", 2);
    List<String> machines = jdbc.sql(MACHINES).params(b[0], b[1], h[0], h[1]).query(String.class).list();
    String m = machine != null && !machine.isBlank() ? machine : machines.size() == 1 ? machines.get(0) : null;
    if (m == null) {
      return problem(base, head, null, baseMachine, machines, machines.isEmpty()
          ? "No machine measured both " + base + " and " + head + "; name a comparable machine for the baseline."
          : null);
    }
    String bm = baseMachine == null || baseMachine.isBlank() ? m : baseMachine;
    try {
      Overhead.Result r = overhead.compare(Overhead.side(base, bm, "base"), Overhead.side(head, m, "head"));
      List<CompareTable.Row> rows = r.rows().stream().filter(x -> !detection.isSecondary(x.metric()))
          .map(x -> new CompareTable.Row(m, x, CompareTable.others(x, r.rows(), true, detection))).toList();
      double[] ratios = rows.stream().mapToDouble(CompareTable.Row::ratio).sorted().toArray();
      return new Page(base, head, m, bm.equals(m) ? null : bm, machines, rows,
          ratios.length == 0 ? Double.NaN : Robust.median(ratios), null);
    } catch (NotFound | InvalidInput e) {
      return problem(base, head, m, baseMachine, machines, e.getMessage());
    }
  }

  private static Page problem(String base, String head, String machine, String baseMachine, List<String> machines,
      String problem) {
    return new Page(base, head, machine, baseMachine, machines, List.of(), Double.NaN, problem);
  }
}
