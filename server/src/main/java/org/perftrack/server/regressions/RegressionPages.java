package org.perftrack.server.regressions;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.feeds.AtomFeed;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.lab.Bisections;
import org.perftrack.server.profiles.RegressionProfiles;
import org.perftrack.server.pages.Catalog;
import org.perftrack.server.pages.PageNotFound;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** The regressions list (filterable), one regression's page, and its triage form (signed-in users). */
@Controller
class RegressionPages {

  /** Rows a page of the list shows; "Older →" and "← Newer" page through the rest. */
  static final int PAGE = 100;
  static final Map<String, String> SIZES = ordered("", "any size", "1.05", "≥ 5% worse", "1.1", "≥ 10% worse",
      "1.25", "≥ 25% worse", "1.5", "≥ 1.5×", "2", "≥ 2×", "3", "≥ 3×");

  /** The list's filter as the URL gives it. */
  record Filter(String product, String machine, String version, String benchmark, StatusFilter status, String size) {}

  /** Versions the version filter offers: a product's newest (any other can be typed). */
  static final int VERSIONS = 100;

  /**
   * {@code versions}: the product's newest first, all of them when {@code everyVersion} (a list to pick from), else
   * the newest {@link #VERSIONS} (suggestions for a field to type in); {@code older}/{@code newer}: the links to the
   * next page either way, null where there is none.
   */
  record ListPage(Filter filter, List<String> products, List<String> machines, List<String> versions,
      boolean everyVersion, List<String> benchmarks,
      List<StatusFilter> statuses, Map<String, String> sizes, List<Regression> rows, String older, String newer) {}

  private final Regressions regressions;
  private final RegressionDetails details;
  private final Catalog catalog;
  private final Bisections bisections;
  private final RegressionProfiles profiles;

  RegressionPages(Regressions regressions, RegressionDetails details, Catalog catalog,
      Bisections bisections, RegressionProfiles profiles) {
    this.regressions = regressions;
    this.details = details;
    this.catalog = catalog;
    this.bisections = bisections;
    this.profiles = profiles;
  }

  @GetMapping("/regressions")
  String list(@RequestParam(required = false) String product, @RequestParam(required = false) String machine,
      @RequestParam(required = false) String version, @RequestParam(required = false) String benchmark, @RequestParam(defaultValue = "open") String status,
      @RequestParam(defaultValue = "") String size, @RequestParam(required = false) String before,
      @RequestParam(required = false) String after, Model model) {
    StatusFilter shown = StatusFilter.of(status);
    if (!SIZES.containsKey(size)) {
      throw new InvalidInput("size", "must be empty (any size) or one of "
          + String.join(", ", SIZES.keySet().stream().filter(k -> !k.isEmpty()).toList()) + ", got: " + size);
    }
    if (before != null && after != null) {
      throw new InvalidInput("after", "give before or after, not both");
    }
    Filter filter = new Filter(blankToNull(product), blankToNull(machine), blankToNull(version), blankToNull(benchmark),
        shown, size);
    Regressions.Criteria criteria = new Regressions.Criteria(filter.product(), filter.machine(), filter.version(),
        filter.benchmark(), size.isEmpty() ? 0 : Double.parseDouble(size), shown.statuses(),
        Regression.Kind.REGRESSION);
    Regressions.Slice slice = before != null
        ? regressions.page(criteria, Regressions.From.BEFORE, cursor("before", before), "before", PAGE)
        : after != null ? regressions.page(criteria, Regressions.From.AFTER, cursor("after", after), "after", PAGE)
        : regressions.page(criteria, Regressions.From.START, 0, null, PAGE);
    List<Regression> rows = slice.rows();
    String older = slice.older() && !rows.isEmpty() ? link(filter, "before", rows.get(rows.size() - 1).id()) : null;
    String newer = slice.newer() && !rows.isEmpty() ? link(filter, "after", rows.get(0).id()) : null;
    List<String> versions = filter.product() == null ? List.of()
        : newestFirst(catalog.recentVersions(filter.product(), VERSIONS + 1));
    boolean every = filter.product() != null && versions.size() <= VERSIONS;
    model.addAttribute("page", new ListPage(filter, catalog.products(), catalog.machines(),
        every ? versions : versions.subList(0, Math.min(VERSIONS, versions.size())), every, catalog.benchmarks(),
        List.of(StatusFilter.values()), SIZES, rows, older, newer));
    // the feed follows the page's product and machine (it tells every status, and has no version or size filter)
    model.addAttribute("atomFeed", AtomFeed.Link.of("regressions", "regressions", filter.product(), filter.machine()));
    return "regressions/list";
  }

  /** A page cursor: the id of a regression. */
  static long cursor(String field, String value) {
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new InvalidInput(field, "must be the id of a regression, got: " + value);
    }
  }

  /** This list's address with the same filter, the page just {@code before} or {@code after} the row {@code id}. */
  private static String link(Filter f, String way, long id) {
    var uri = org.springframework.web.util.UriComponentsBuilder.fromPath("/regressions");
    java.util.function.BiConsumer<String, String> add = (k, v) -> {
      if (v != null && !v.isEmpty()) {
        uri.queryParam(k, v);
      }
    };
    add.accept("product", f.product());
    add.accept("machine", f.machine());
    add.accept("version", f.version());
    add.accept("benchmark", f.benchmark());
    add.accept("status", f.status() == StatusFilter.OPEN ? null : f.status().wire());
    add.accept("size", f.size());
    uri.queryParam(way, id);
    return uri.encode().build().toUriString();
  }

  @GetMapping("/regressions/{id}")
  String regression(@PathVariable long id, Model model) {
    Regression r = regressions.find(id).orElseThrow(() -> new PageNotFound("no regression " + id));
    model.addAttribute("page", details.of(r, Regression.Status.TRIAGE));
    model.addAttribute("bisection", bisections.forRegression(id).orElse(null));
    model.addAttribute("cannotBisect", bisections.cannotBisect(id).orElse(null));
    model.addAttribute("profile", profiles.of(r));
    return "regressions/regression";
  }

  @PostMapping("/regressions/{id}/triage")
  String triage(@PathVariable long id, @RequestParam String status, @RequestParam(defaultValue = "") String note,
      Principal who, RedirectAttributes flash) {
    Regression.Status chosen = Regression.Status.TRIAGE.stream().filter(s -> s.wire().equals(status)).findFirst()
        .orElseThrow(() -> new InvalidInput("status", "must be one of "
            + Regression.Status.TRIAGE.stream().map(Regression.Status::wire).toList()));
    String trimmed = note.strip();
    regressions.triage(id, chosen, trimmed.isEmpty() ? null : trimmed, who.getName())
        .orElseThrow(() -> new PageNotFound("no regression " + id));
    flash.addFlashAttribute("triaged", true);
    return "redirect:/regressions/" + id + "#triage";
  }

  private static List<String> newestFirst(List<String> versions) {
    List<String> out = new java.util.ArrayList<>(versions);
    java.util.Collections.reverse(out);
    return out;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  private static Map<String, String> ordered(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }
}
