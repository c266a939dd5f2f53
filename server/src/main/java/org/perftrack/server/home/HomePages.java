package org.perftrack.server.home;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.feeds.AtomFeed;
import org.perftrack.server.pages.DataCache;
import org.perftrack.server.pages.Fragments;
import org.perftrack.server.regressions.OpenRegressions;
import org.perftrack.server.runs.RunQueries;
import org.perftrack.server.summaries.Summaries;
import org.perftrack.server.summaries.Summary;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.servlet.ViewResolver;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * The home page: open regressions (newest first, worst first), products, machines and the latest runs;
 * on an empty database, how to send the first results.
 */
@Controller
class HomePages {

  record ProductRow(String name, long versions, long machines, String latestVersion) {}

  record MachineRow(String name, String os, String cpu, Integer cores, long runs, Instant lastRun) {}

  /**
   * Machines per product from its series (a table that grows with machines and metrics, not with history);
   * versions counted by the product itself (kept by a trigger on version, V29, less its deleted ones: V43, and those of
   * deleted machines only: V49), the latest by a few index probes.
   */
  static final String PRODUCTS = """
      SELECT p.name,
             live_version_count(p.id) AS versions,
             (SELECT count(DISTINCT s.machine_id) FROM series s JOIN machine m ON m.id = s.machine_id
               WHERE s.product_id = p.id AND m.deletion_id IS NULL) AS machines,
             (SELECT v.name FROM version v WHERE v.product_id = p.id AND v.deletion_id IS NULL
                 AND NOT version_of_deleted_machines(v.id)
               ORDER BY v.sort_key DESC LIMIT 1) AS latest_version
      FROM product p WHERE p.deletion_id IS NULL ORDER BY p.name""";

  /** Runs are counted up to 101 (shown as "100+" beyond), so the list costs the same with any history. */
  static final String MACHINES = """
      SELECT m.name, m.os, m.cpu, m.cores,
             (SELECT count(*) FROM (SELECT 1 FROM run r WHERE r.machine_id = m.id LIMIT 101) AS counted) AS runs,
             (SELECT max(r.received_at) FROM run r WHERE r.machine_id = m.id) AS last_run
      FROM machine m WHERE m.deletion_id IS NULL ORDER BY m.name""";

  /** The data part of the page as rendered, and whether there is any data. */
  record Rendered(boolean empty, String grid) {}

  private final JdbcClient jdbc;
  private final RunQueries runs;
  private final OpenRegressions regressions;
  private final Summaries summaries;
  private final DataCache cache;
  private final ViewResolver views;

  HomePages(JdbcClient jdbc, RunQueries runs, OpenRegressions regressions, Summaries summaries, DataCache cache,
      @Qualifier("thymeleafViewResolver") ViewResolver views) {
    this.summaries = summaries;
    this.jdbc = jdbc;
    this.runs = runs;
    this.regressions = regressions;
    this.cache = cache;
    this.views = views;
  }

  /**
   * The page is mostly the rendering of its data (five lists), the same for every reader: that part is rendered once
   * per change of the data ({@link DataCache}'s stamp) and kept as HTML; the layout around it (who is signed in) is
   * rendered for each request.
   */
  @GetMapping("/")
  String home(Model model, HttpServletRequest request, HttpServletResponse response) {
    Rendered home = cache.get("home", () -> render(request, response));
    model.addAttribute("empty", home.empty());
    model.addAttribute("grid", home.grid());
    model.addAttribute("serverUrl", ServletUriComponentsBuilder.fromContextPath(request).build().toUriString());
    model.addAttribute("atomFeed", AtomFeed.Link.of("summaries", "regression summaries", null, null));
    return "home/index";
  }

  private Rendered render(HttpServletRequest request, HttpServletResponse response) {
    List<ProductRow> products = jdbc.sql(PRODUCTS).query(ProductRow.class).list();
    if (products.isEmpty()) {
      return new Rendered(true, "");
    }
    Map<String, Object> data = new HashMap<>();
    data.put("products", products);
    data.put("machines", jdbc.sql(MACHINES).query(MachineRow.class).list());
    data.put("latestRuns", runs.latest(20));
    data.put("open", regressions.newestWorstFirst(10));
    // one row per summary: newest first, the worst first among those one upload or import opened together (they
    // share their transaction's time); a summary whose every member detection withdrew (an excluded run, a step the
    // next versions undid) is not something that got slower: it stays on its own page and in the summaries' list
    data.put("summaries", summaries.list(null, null, List.of(Regression.Status.OPEN)).stream()
        .filter(s -> s.standingMembers() > 0)
        .sorted(java.util.Comparator.comparing(Summary::createdAt).reversed()
            .thenComparing(java.util.Comparator.comparingDouble(HomePages::severity).reversed()))
        .limit(10).toList());
    return new Rendered(false, Fragments.render(views, "home/grid :: grid", data, request, response));
  }

  private static double severity(Summary s) {
    return s.members().isEmpty() ? 0 : s.members().get(0).severity();
  }
}
