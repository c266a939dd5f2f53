package org.perftrack.server.pages;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.perftrack.server.security.Scope;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

/**
 * The 404 of a page about a product, branch or machine an admin deleted (and nobody purged yet): it says who deleted
 * it and when, and that it can be restored under Recently deleted, instead of "there is nothing at this address"; to
 * anyone but an admin it is a plain 404.
 */
@Component
public class DeletedNotFound {

  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
      .withZone(ZoneOffset.UTC);

  record Deletion(String deletedBy, Instant deletedAt) {
    String sentence(String what) {
      return what + " was deleted by " + deletedBy + " at " + WHEN.format(deletedAt);
    }
  }

  private final JdbcClient jdbc;

  DeletedNotFound(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String PRODUCT = """
      SELECT d.deleted_by, d.deleted_at FROM product p JOIN deletion d ON d.id = p.deletion_id WHERE p.name = ?""";
  static final String BRANCH = """
      SELECT d.deleted_by, d.deleted_at FROM branch b JOIN product p ON p.id = b.product_id
        JOIN deletion d ON d.id = b.deletion_id
      WHERE p.name = ? AND b.name = ? ORDER BY d.deleted_at DESC LIMIT 1""";
  static final String MACHINE = """
      SELECT d.deleted_by, d.deleted_at FROM machine m JOIN deletion d ON d.id = m.deletion_id WHERE m.name = ?""";

  /** Product {@code product}'s deletion, if it is deleted, said to an admin (others: a plain 404). */
  public Optional<String> product(String product) {
    return !admin() ? Optional.empty() : jdbc.sql(PRODUCT).param(product).query(Deletion.class).optional()
        .map(d -> d.sentence("Product " + product));
  }

  /** The 404 of a page of product {@code product}. */
  public PageNotFound noProduct(String product, String what) {
    return new PageNotFound(what, product(product).orElse(null));
  }

  /** The 404 of a branch's page: its product or the branch itself may have been deleted. */
  public PageNotFound noBranch(String product, String branch) {
    String deleted = !admin() ? null : product(product).or(() -> jdbc.sql(BRANCH).params(product, branch).query(Deletion.class)
        .optional().map(d -> d.sentence("Branch " + branch + " of " + product))).orElse(null);
    return new PageNotFound("product " + product + " has no branch " + branch, deleted);
  }

  /** Machine {@code machine}'s deletion, if it is deleted, said to an admin. */
  public Optional<String> machine(String machine) {
    return !admin() ? Optional.empty() : jdbc.sql(MACHINE).param(machine).query(Deletion.class).optional().map(d -> d.sentence("Machine " + machine));
  }

  /** Who deleted what, and when, is an admin's to read (the audit log is theirs too). */
  private static boolean admin() {
    return Scope.isAdmin(SecurityContextHolder.getContext().getAuthentication());
  }

  /** The 404 of a machine's page. */
  public PageNotFound noMachine(String machine) {
    return new PageNotFound("no machine " + machine, machine(machine).orElse(null));
  }
}
