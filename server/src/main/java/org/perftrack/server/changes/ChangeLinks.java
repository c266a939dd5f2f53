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

  /** The links a regression's page and mail show: each null when its template is not set. */
  public record OfStep(String version, String range, String from, String to) {}

  private final JdbcClient jdbc;

  ChangeLinks(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  public Optional<Templates> templates(String product) {
    return jdbc.sql("""
        SELECT version_changes_url, range_changes_url FROM product WHERE name = :product
        """).param("product", product)
        .query((rs, n) -> new Templates(rs.getString(1), rs.getString(2))).optional();
  }

  /** Checks both templates (http/https, known placeholders only) and stores them; false when no such product. */
  @Transactional
  public boolean set(String product, Templates t) {
    String version = check("versionUrl", t.versionUrl(), Set.of("version"));
    String range = check("rangeUrl", t.rangeUrl(), Set.of("from", "to"));
    return jdbc.sql("""
        UPDATE product SET version_changes_url = :version, range_changes_url = :range WHERE name = :product
        """).param("version", version).param("range", range).param("product", product).update() == 1;
  }

  /** The links of a regression: its version, and the range its step is between (the suspect range when ranged). */
  public OfStep of(Regression r) {
    Templates t = templates(r.product()).orElse(new Templates(null, null));
    String from = r.ranged() ? before(r.product(), r.firstSuspect()) : r.baselineVersion();
    String to = r.ranged() ? r.lastSuspect() : r.version();
    String range = t.rangeUrl() == null || from == null ? null : fill(t.rangeUrl(), Map.of("from", from, "to", to));
    String version = t.versionUrl() == null ? null : fill(t.versionUrl(), Map.of("version", r.version()));
    return new OfStep(version, range, from, to);
  }

  /** The link to one version's changes, or null. */
  public String version(String product, String version) {
    return templates(product).map(Templates::versionUrl).map(u -> fill(u, Map.of("version", version))).orElse(null);
  }

  private String before(String product, String version) {
    return jdbc.sql("""
        SELECT v.name FROM version v JOIN product p ON p.id = v.product_id
        WHERE p.name = :product AND v.sort_key < (SELECT w.sort_key FROM version w WHERE w.product_id = p.id
                                                  AND w.name = :version)
        ORDER BY v.sort_key DESC LIMIT 1
        """).param("product", product).param("version", version).query(String.class).optional().orElse(null);
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
