package org.perftrack.server.changes;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Links to what changed in a version and between two versions, from the product's URL templates
 * ({@code ${@changes.of(r)}} in pages, {@code changes} in mails). A range link is made only for the pair a step is
 * between (a regression's baseline and version, adjacent in its series) or for its suspect range; never for a guessed
 * range. Values are URL-encoded into the template.
 */
@Component("changes")
public class ChangeLinks {

  static final int MAX = 500;
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]*)}");

  /** A product's templates; null where none is set. */
  public record Templates(String versionUrl, String rangeUrl) {}

  /**
   * The links shown for two versions: {@code range} from {@code from} to {@code to}, {@code version} the changes in
   * {@code at}; each null when its template is not set (a range's also when it would be a guess).
   */
  public record OfStep(String version, String range, String from, String to, String at) {}

  private final JdbcClient jdbc;
  private final Audit audit;

  ChangeLinks(JdbcClient jdbc, Audit audit) {
    this.jdbc = jdbc;
    this.audit = audit;
  }

  public Optional<Templates> templates(String product) {
    return jdbc.sql("""
        SELECT version_changes_url, range_changes_url FROM product WHERE name = :product AND deletion_id IS NULL
        """).param("product", product)
        .query((rs, n) -> new Templates(rs.getString(1), rs.getString(2))).optional();
  }

  /**
   * Checks both templates (http/https, known placeholders only; blank removes one) and stores them, audited as
   * {@code product.change-links} by {@code by}; false when no such product. Nothing is stored when either is refused.
   */
  @Transactional
  public boolean set(String product, Templates t, String by) {
    String version = check("versionUrl", t.versionUrl(), Set.of("version"));
    String range = check("rangeUrl", t.rangeUrl(), Set.of("from", "to"));
    boolean done = jdbc.sql("""
        UPDATE product SET version_changes_url = :version, range_changes_url = :range
        WHERE name = :product AND deletion_id IS NULL
        """).param("version", version).param("range", range).param("product", product).update() == 1;
    if (done) {
      audit.record(by, "product.change-links", product, "version: " + version + ", range: " + range);
    }
    return done;
  }

  /**
   * The links of a regression: its version (the likeliest, when ranged), and the range its step is between (the
   * suspect range when ranged).
   */
  public OfStep of(Regression r) {
    String from = r.ranged() ? before(r.product(), r.firstSuspect()) : r.baselineVersion();
    OfStep range = between(r.product(), from, r.ranged() ? r.lastSuspect() : r.version());
    return new OfStep(range.version() == null ? null : version(r.product(), r.version()), range.range(), from,
        range.to(), r.version());
  }

  /**
   * The links of two versions a step is known to lie between: adjacent ones, a suspect range, a bisection's last
   * good and first bad version. The caller vouches for that; for two versions anyone chose, {@link #compared}.
   */
  public OfStep between(String product, String from, String to) {
    Templates t = templates(product).orElse(new Templates(null, null));
    String range = t.rangeUrl() == null || from == null ? null : fill(t.rangeUrl(), Map.of("from", from, "to", to));
    String version = t.versionUrl() == null ? null : fill(t.versionUrl(), Map.of("version", to));
    return new OfStep(version, range, from, to, to);
  }

  /**
   * Two versions a reader compares (compare, a run's report): the later one's link, and the range's only when they
   * are adjacent among the product's versions; a wider range would be a guess at where a change lies.
   */
  public OfStep compared(String product, String base, String head) {
    OfStep links = between(product, base, head);
    return links.range() == null || adjacent(product, base, head) ? links
        : new OfStep(links.version(), null, base, head, head);
  }

  /** The link to one version's changes, or null. */
  public String version(String product, String version) {
    return templates(product).map(Templates::versionUrl).map(u -> fill(u, Map.of("version", version))).orElse(null);
  }

  private String before(String product, String version) {
    return jdbc.sql("""
        SELECT v.name FROM version v JOIN product p ON p.id = v.product_id
        WHERE p.name = :product AND v.deletion_id IS NULL
          AND v.sort_key < (SELECT w.sort_key FROM version w WHERE w.product_id = p.id AND w.name = :version)
        ORDER BY v.sort_key DESC LIMIT 1
        """).param("product", product).param("version", version).query(String.class).optional().orElse(null);
  }

  /** {@code base} comes before {@code head} with no live version of the product between them. */
  private boolean adjacent(String product, String base, String head) {
    return jdbc.sql("""
        SELECT b.sort_key < h.sort_key AND NOT EXISTS (
                 SELECT 1 FROM version v WHERE v.product_id = p.id AND v.deletion_id IS NULL
                   AND v.sort_key > b.sort_key AND v.sort_key < h.sort_key)
        FROM product p JOIN version b ON b.product_id = p.id AND b.name = :base
        JOIN version h ON h.product_id = p.id AND h.name = :head
        WHERE p.name = :product
        """).param("product", product).param("base", base).param("head", head).query(Boolean.class).optional()
        .orElse(false);
  }

  /** The template with each {@code {name}} replaced by its value, URL-encoded. */
  public static String fill(String template, Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(
          URLEncoder.encode(values.get(m.group(1)), StandardCharsets.UTF_8).replace("+", "%20")));
    }
    return m.appendTail(out).toString();
  }

  /**
   * A URL template checked: null when blank, else stripped, http or https once filled, at most {@link #MAX}
   * characters, with no placeholder but {@code known}; a 400 naming {@code field} otherwise.
   */
  public static String check(String field, String template, Set<String> known) {
    if (template == null || template.isBlank()) {
      return null;
    }
    String t = template.strip();
    if (t.length() > MAX) {
      throw new InvalidInput(field, "must be at most " + MAX + " characters");
    }
    Matcher m = PLACEHOLDER.matcher(t);
    Map<String, Boolean> seen = new LinkedHashMap<>();
    while (m.find()) {
      if (!known.contains(m.group(1))) {
        throw new InvalidInput(field, "may use only " + known.stream().sorted().map(k -> "{" + k + "}").toList()
            + ", got {" + m.group(1) + "}");
      }
      seen.put(m.group(1), true);
    }
    URI uri;
    try {
      uri = URI.create(fill(t, known.stream().collect(java.util.stream.Collectors.toMap(k -> k, k -> "x"))));
    } catch (IllegalArgumentException e) {
      throw new InvalidInput(field, "must be a URL, got: " + t);
    }
    if (uri.getScheme() == null || !Set.of("http", "https").contains(uri.getScheme().toLowerCase(java.util.Locale.ROOT))
        || uri.getHost() == null) {
      throw new InvalidInput(field, "must be an http or https URL, got: " + t);
    }
    return t;
  }
}
