package org.perftrack.server.bugs;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.changes.ChangeLinks;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.web.Wording;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A product's "File a bug" link ({@code @newBug} in templates): its URL template with {@code {title}} and
 * {@code {body}}, filled with a summary's title and a body naming its versions, members and links, so that the
 * tracker's new-bug form opens prefilled.
 */
@Component("newBug")
public class NewBug {

  static final Set<String> PLACEHOLDERS = Set.of("title", "body");
  /** The longest body put in an address (trackers and browsers refuse much longer ones): the worst members first. */
  static final int MAX_BODY = 3000;
  static final int MAX_MEMBERS = 20;

  private final JdbcClient jdbc;
  private final ChangeLinks changes;
  private final SiteProperties site;
  private final Audit audit;

  NewBug(JdbcClient jdbc, ChangeLinks changes, SiteProperties site, Audit audit) {
    this.jdbc = jdbc;
    this.changes = changes;
    this.site = site;
    this.audit = audit;
  }

  /** The product's template (null inside when none is set); empty when there is no such product. */
  public Optional<Optional<String>> template(String product) {
    return jdbc.sql("SELECT new_bug_url FROM product WHERE name = ? AND deletion_id IS NULL").param(product)
        .query((rs, n) -> Optional.ofNullable(rs.getString(1))).optional();
  }

  /** Checks and stores the template (blank removes it); false when there is no such product. */
  public boolean set(String product, String template, String by) {
    String checked = ChangeLinks.check("newBugUrl", template, PLACEHOLDERS);
    boolean done = jdbc.sql("UPDATE product SET new_bug_url = ? WHERE name = ? AND deletion_id IS NULL")
        .params(checked, product).update() == 1;
    if (done) {
      audit.record(by, "product.new-bug-url", product, String.valueOf(checked));
    }
    return done;
  }

  /** The link that files a bug about a summary, or null when its product has no template. */
  public String forSummary(String product, String title, String version, List<String> baselines,
      List<Regression> members, String path) {
    Optional<String> template = template(product).flatMap(t -> t);
    if (template.isEmpty()) {
      return null;
    }
    StringBuilder body = new StringBuilder();
    body.append("perftrack: ").append(site.base()).append(path).append('\n');
    body.append("Versions: ").append(String.join(", ", baselines)).append(" → ").append(version).append("\n\n");
    body.append(Wording.count(members.size(), "regression")).append(":\n");
    members.stream().limit(MAX_MEMBERS).forEach(r -> body.append(line(r)));
    if (members.size() > MAX_MEMBERS) {
      body.append("- … and ").append(members.size() - MAX_MEMBERS).append(" more\n");
    }
    String versionChanges = changes.version(product, version);
    if (versionChanges != null) {
      body.append("\nChanges in ").append(version).append(": ").append(versionChanges).append('\n');
    }
    String text = body.length() > MAX_BODY ? body.substring(0, MAX_BODY - 1) + "…" : body.toString();
    return ChangeLinks.fill(template.get(), Map.of("title", title, "body", text));
  }

  /** "- write-64b time-per-op on xp: ×2.67, 18 µs → 48 µs, 1.5.19-4 → 1.5.24-2 (changes: …) https://…/regressions/5". */
  private String line(Regression r) {
    String range = changes.of(r).range();
    return "- " + r.benchmark() + " " + r.metric() + " on " + r.machine() + ": " + Wording.ratio(r.ratio()) + ", "
        + r.baselineVersion() + " → " + r.version() + (r.ranged() ? " (starts " + r.place() + ")" : "")
        + (range == null ? "" : " (changes: " + range + ")") + " " + site.base() + "/regressions/" + r.id() + "\n";
  }

  /** A regression's own "File a bug" link, or null: its summary's title is the step's. */
  public String forRegression(Regression r) {
    String title = r.product() + " " + r.version() + ": " + r.benchmark() + " " + r.metric() + " on " + r.machine()
        + " " + Wording.ratio(r.ratio());
    return forSummary(r.product(), title, r.version(), List.of(r.baselineVersion()), List.of(r),
        "/regressions/" + r.id());
  }

}
