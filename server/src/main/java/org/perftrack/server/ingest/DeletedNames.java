package org.perftrack.server.ingest;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.wire.RunUpload;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Refuses runs sent to a product, machine or version an admin deleted (and did not restore yet): such a run would
 * be stored where nothing shows it. The answer names the field, who deleted it and when, and that an admin can
 * restore it under Recently deleted; nothing is stored.
 */
@Component
class DeletedNames {

  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
      .withZone(ZoneOffset.UTC);

  /** One deleted name a run used. */
  record Deleted(String field, String product, String name, String deletedBy, Instant deletedAt) {

    FieldProblem problem() {
      String what = switch (field) {
        case "product" -> "product " + name;
        case "machine.name" -> "machine " + name;
        default -> "version " + name + " of " + product;
      };
      return new FieldProblem(field, what + " was deleted by " + deletedBy + " at " + WHEN.format(deletedAt)
          + "; an admin can restore it under Recently deleted (/admin/deleted)");
    }
  }

  private final JdbcClient jdbc;

  DeletedNames(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String DELETED = """
      SELECT 'product' AS field, p.name AS product, p.name, d.deleted_by, d.deleted_at
        FROM product p JOIN deletion d ON d.id = p.deletion_id WHERE p.name = ANY(?::text[])
      UNION ALL
      SELECT 'machine.name', NULL, m.name, d.deleted_by, d.deleted_at
        FROM machine m JOIN deletion d ON d.id = m.deletion_id WHERE m.name = ANY(?::text[])
      UNION ALL
      SELECT 'version', p.name, v.name, d.deleted_by, d.deleted_at
        FROM unnest(?::text[], ?::text[]) AS k(product, version)
        JOIN product p ON p.name = k.product JOIN version v ON v.product_id = p.id AND v.name = k.version
        JOIN deletion d ON d.id = v.deletion_id""";

  /** The refusal of one run (a 409 naming each deleted field), or nothing. */
  void refuse(RunUpload run) {
    List<FieldProblem> problems = problems(List.of(run)).get(0);
    if (problems != null) {
      throw new Conflict(problems.get(0).message(), problems);
    }
  }

  static final String DELETED_VERSION = """
      SELECT 'startPoint' AS field, p.name AS product, v.name, d.deleted_by, d.deleted_at
        FROM product p JOIN version v ON v.product_id = p.id JOIN deletion d ON d.id = v.deletion_id
       WHERE p.name = ? AND v.name = ?""";

  /**
   * The refusal of a branch build whose start point, the default branch's {@code version} of {@code product}, is
   * deleted (a 409 naming {@code startPoint}), or nothing.
   */
  void refuseStartPoint(String product, String version) {
    jdbc.sql(DELETED_VERSION).params(product, version).query(Deleted.class).optional().ifPresent(d -> {
      throw new Conflict(d.problem().message(), List.of(d.problem()));
    });
  }

  /** For each run, the deleted names it uses (null when none), with one statement for all of them. */
  List<List<FieldProblem>> problems(List<RunUpload> runs) {
    List<String> products = new ArrayList<>();
    List<String> machines = new ArrayList<>();
    List<String> versionProducts = new ArrayList<>();
    List<String> versions = new ArrayList<>();
    for (RunUpload r : runs) {
      products.add(r.product());
      machines.add(r.machine().name());
      if (r.branch() == null) { // a branch build's version is its own, not one of the product's
        versionProducts.add(r.product());
        versions.add(r.version());
      }
    }
    Map<String, Deleted> found = new HashMap<>();
    jdbc.sql(DELETED).params(products.toArray(String[]::new), machines.toArray(String[]::new),
        versionProducts.toArray(String[]::new), versions.toArray(String[]::new)).query(Deleted.class).list()
        .forEach(d -> found.put(d.field() + "\0" + (d.product() == null ? "" : d.product()) + "\0" + d.name(), d));
    List<List<FieldProblem>> out = new ArrayList<>();
    for (RunUpload r : runs) {
      if (found.isEmpty()) {
        out.add(null);
        continue;
      }
      List<FieldProblem> p = new ArrayList<>();
      add(p, found.get("product\0" + r.product() + "\0" + r.product()));
      add(p, found.get("machine.name\0\0" + r.machine().name()));
      if (r.branch() == null) {
        add(p, found.get("version\0" + r.product() + "\0" + r.version()));
      }
      out.add(p.isEmpty() ? null : p);
    }
    return out;
  }

  private static void add(List<FieldProblem> problems, Deleted d) {
    if (d != null) {
      problems.add(d.problem());
    }
  }
}
