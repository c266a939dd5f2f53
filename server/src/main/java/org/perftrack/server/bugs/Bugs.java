package org.perftrack.server.bugs;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.perftrack.server.alerts.BugLink;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * The bugs filed about a regression or a summary ({@code @bugs} in templates): any tracker's http or https address.
 * Setting a list replaces the one stored, audited with who did it.
 */
@Component("bugs")
public class Bugs implements BugLink {

  static final int MAX_URL = 2000;
  static final int MAX_LINKS = 20;

  /** What bugs are about: a regression or a summary, each its own column of {@code bug_link}. */
  public enum About {
    REGRESSION("regression_id"), SUMMARY("summary_id");

    final String column;

    About(String column) {
      this.column = column;
    }

    String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final JdbcClient jdbc;
  private final Audit audit;

  Bugs(JdbcClient jdbc, Audit audit) {
    this.jdbc = jdbc;
    this.audit = audit;
  }

  /** The bugs of one regression or summary, oldest first. */
  public List<String> of(About about, long id) {
    return jdbc.sql("SELECT url FROM bug_link WHERE " + about.column + " = ? ORDER BY id").param(id)
        .query(String.class).list();
  }

  public List<String> ofRegression(long id) {
    return of(About.REGRESSION, id);
  }

  public List<String> ofSummary(long id) {
    return of(About.SUMMARY, id);
  }

  /** How many bugs each of these ({@code regression} or {@code summary}) has, for a list's rows (absent: none). */
  public Map<Long, Integer> counts(String about, Collection<Long> ids) {
    return counts(About.valueOf(about.toUpperCase(Locale.ROOT)), ids);
  }

  Map<Long, Integer> counts(About about, Collection<Long> ids) {
    return jdbc.sql("SELECT " + about.column + ", count(*)::int FROM bug_link WHERE " + about.column
            + " = ANY(?::bigint[]) GROUP BY 1").param(ids.toArray(Long[]::new))
        .query((rs, n) -> Map.entry(rs.getLong(1), rs.getInt(2))).list().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /** The regression's bugs, then its summary's. */
  @Override
  public List<String> urls(Regression r) {
    Set<String> all = new LinkedHashSet<>(ofRegression(r.id()));
    if (r.summaryId() != null) {
      all.addAll(ofSummary(r.summaryId()));
    }
    return List.copyOf(all);
  }

  /**
   * Replaces the bugs of a regression or summary (that the caller knows exists) with {@code urls}, each checked (http
   * or https, at most {@link #MAX_URL} characters, at most {@link #MAX_LINKS}); a 400 names {@code urls[i]}.
   */
  @Transactional
  public List<String> set(About about, long id, List<String> urls, String by) {
    List<String> checked = check(urls);
    List<String> before = of(about, id);
    jdbc.sql("DELETE FROM bug_link WHERE " + about.column + " = ?").param(id).update();
    for (String url : checked) {
      jdbc.sql("INSERT INTO bug_link (" + about.column + ", url, added_by) VALUES (?, ?, ?)").params(id, url, by)
          .update();
    }
    if (!before.equals(checked)) {
      audit.record(by, "bugs.set", about.wire() + " " + id, String.join(" ", checked));
    }
    return checked;
  }

  /** Adds one bug (a page's form); nothing when it is there already. */
  @Transactional
  public List<String> add(About about, long id, String url, String by) {
    List<String> now = new ArrayList<>(of(about, id));
    if (!now.contains(url == null ? null : url.strip())) {
      now.add(url);
    }
    return set(about, id, now, by);
  }

  /** Removes one bug (a page's form). */
  @Transactional
  public List<String> remove(About about, long id, String url, String by) {
    List<String> now = new ArrayList<>(of(about, id));
    now.remove(url);
    return set(about, id, now, by);
  }

  static List<String> check(List<String> urls) {
    if (urls == null) {
      throw new InvalidInput("urls", "is required: a list of http or https addresses (empty removes them all)");
    }
    if (urls.size() > MAX_LINKS) {
      throw new InvalidInput("urls", "must hold at most " + MAX_LINKS + " addresses, got " + urls.size());
    }
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < urls.size(); i++) {
      out.add(checkUrl("urls[" + i + "]", urls.get(i), MAX_URL));
    }
    return List.copyOf(out);
  }

  /** An http or https address with a host, stripped; a 400 naming {@code field} otherwise. */
  static String checkUrl(String field, String url, int max) {
    if (url == null || url.isBlank()) {
      throw new InvalidInput(field, "must be an http or https address, got nothing");
    }
    String u = url.strip();
    if (u.length() > max) {
      throw new InvalidInput(field, "must be at most " + max + " characters");
    }
    Optional<URI> uri;
    try {
      uri = Optional.of(URI.create(u));
    } catch (IllegalArgumentException e) {
      uri = Optional.empty();
    }
    String scheme = uri.map(URI::getScheme).map(s -> s.toLowerCase(Locale.ROOT)).orElse("");
    if (uri.isEmpty() || !Set.of("http", "https").contains(scheme) || uri.get().getHost() == null) {
      throw new InvalidInput(field, "must be an http or https address, got: " + u);
    }
    return u;
  }
}
