package org.perftrack.server.compare;

import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.perftrack.server.branches.Branches;
import org.perftrack.server.pages.Catalog;
import org.perftrack.server.pages.DataCache;
import org.perftrack.server.pages.DeletedNotFound;
import org.perftrack.server.web.Links;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Base against head, on one machine or all that measured both: the page (shareable: everything is
 * in the URL) and the same table as CSV.
 *
 * <p>Size: {@code build} (about 60 lines) is the page's decision list (no data, unknown product, bad version, branch
 * head, cached table), each an early return.
 */
@Controller
class ComparePages {

  /**
   * {@code rows} per machine when one machine is chosen; {@code summary} per metric across machines otherwise.
   * {@code product} is the one compared, or the name asked for when there is no such product ({@code problem}).
   */
  record Page(List<String> products, String product, List<String> versions, String base, String head,
      List<String> machines, String machine, int machineCount, List<CompareTable.Row> rows,
      List<AcrossMachines> summary, CompareTable.Counts counts, String csvUrl, String problem, String hint,
      Paging paging, Head heads) {}

  /**
   * Where head comes from: {@code branch} null for the default branch, else a branch of the product with its
   * {@code builds} (newest first) that head can be; {@code branches} the product's branches the picker offers.
   */
  record Head(List<String> branches, String branch, List<String> builds, String branchPage) {
    static final Head DEFAULT = new Head(List.of(), null, List.of(), null);
  }

  /**
   * Which benchmarks this page compares: from {@code first} (null: the first), up to {@code next} (null: the
   * last); {@code all} when a signed-in reader asked for every benchmark at once.
   */
  record Paging(String first, String next, boolean all, String nextUrl, String allUrl, String firstUrl) {
    static final Paging NONE = new Paging(null, null, false, null, null, null);

    public boolean paged() {
      return first != null || next != null;
    }
  }

  /** Comparisons (series × machines) one request computes unless a signed-in reader asks for all. */
  static final int BUDGET = 100;

  /** Versions the pickers offer (any other can be typed). */
  static final int RECENT = 100;

  private final Catalog catalog;
  private final CompareTable table;
  private final DataCache cache;
  private final OverheadPage overhead;
  private final Branches branches;
  private final DeletedNotFound deleted;

  ComparePages(Catalog catalog, CompareTable table, DataCache cache, OverheadPage overhead, Branches branches,
      DeletedNotFound deleted) {
    this.deleted = deleted;
    this.branches = branches;
    this.catalog = catalog;
    this.table = table;
    this.cache = cache;
    this.overhead = overhead;
  }

  @GetMapping("/compare")
  String compare(@RequestParam(required = false) String product, @RequestParam(required = false) String base,
      @RequestParam(required = false) String head, @RequestParam(required = false) String machine, Model model,
      @RequestParam(required = false) String baseMachine, @RequestParam(required = false) String from,
      @RequestParam(defaultValue = "false") boolean all, @RequestParam(required = false) String headBranch,
      Authentication auth, HttpServletResponse response) {
    if (product == null && (Overhead.isProductAtVersion(base) || Overhead.isProductAtVersion(head))) {
      OverheadPage.Page page = overhead.build(base, head, machine, baseMachine);
      if (page.problem() != null) {
        response.setStatus(HttpStatus.NOT_FOUND.value());
      }
      model.addAttribute("page", page);
      return "compare/overhead";
    }
    Page page = build(product, base, head, headBranch, machine, from, all && signedIn(auth)).page();
    model.addAttribute("signedIn", signedIn(auth));
    if (page.problem() != null) {
      response.setStatus(HttpStatus.NOT_FOUND.value());
    }
    model.addAttribute("page", page);
    return "compare/compare";
  }

  /** The CSV; a product or version that is not there is a 404 problem+json saying which, as the API answers. */
  @GetMapping("/compare.csv")
  ResponseEntity<?> csv(@RequestParam String product, @RequestParam String base, @RequestParam String head,
      @RequestParam(required = false) String machine, @RequestParam(required = false) String from,
      @RequestParam(required = false) String headBranch, Authentication auth) {
    // signed in: every benchmark; anonymous: the page's benchmarks, as bounded as the page
    Built built = build(product, base, head, headBranch, machine, from, signedIn(auth));
    Page page = built.page();
    if (page.problem() != null) {
      return ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(MediaType.APPLICATION_PROBLEM_JSON)
          .body(ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, page.problem()));
    }
    String name = ("compare-" + product + "-" + base + "-" + head + ".csv").replaceAll("[^A-Za-z0-9._-]", "_");
    return ResponseEntity.ok()
        .contentType(new MediaType("text", "csv", StandardCharsets.UTF_8))
        .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(name).build().toString())
        .body(Csv.of(built.rows(), page.base(), page.head()).getBytes(StandardCharsets.UTF_8));
  }

  /** The page and every per-machine row behind it (the CSV's lines). */
  private record Built(Page page, List<CompareTable.Row> rows) {}

  private static boolean signedIn(Authentication auth) {
    return auth != null && auth.isAuthenticated() && !(auth instanceof AnonymousAuthenticationToken);
  }

  private Built build(String product, String base, String head, String headBranch, String machine, String from,
      boolean all) {
    List<String> products = catalog.products();
    String p = product != null && products.contains(product) ? product : products.isEmpty() ? null : products.get(0);
    if (p == null) {
      return new Built(empty(products, null, List.of(), null, null, null, "No results yet: send some runs first."),
          List.of());
    }
    if (product != null && !product.isBlank() && !product.equals(p)) { // unknown or deleted: not another product
      return new Built(empty(products, product, List.of(), base, head, noProduct(product), null), List.of());
    }
    List<String> versions = catalog.recentVersions(p, RECENT);
    if (versions.size() < 2 && (headBranch == null || headBranch.isBlank())) {
      return new Built(empty(products, p, versions, null, null, null,
          p + " has only one version so far: nothing to compare."), List.of());
    }
    Head heads = heads(p, headBranch);
    String unknown = heads.branch() == null ? unknown(product, p, versions, base, head)
        : unknownOnBranch(product, p, versions, base, head, heads);
    if (unknown != null) { // the fields keep what was typed, to be corrected
      return new Built(empty(products, p, versions, base, head, unknown, null, heads), List.of());
    }
    String h;
    String b;
    List<String> both;
    if (heads.branch() == null) {
      h = head != null && !head.isBlank() ? head : versions.get(versions.size() - 1);
      b = base != null && !base.isBlank() ? base : catalog.versionBefore(p, h).orElse(h);
      both = catalog.machinesWithBoth(p, b, h);
    } else { // a branch's build, by default its newest against the start point it was judged against
      List<Branches.BuildLine> lines = branches.buildLines(p, heads.branch()).orElse(List.of());
      if (lines.isEmpty()) {
        return new Built(empty(products, p, versions, null, null, null, "Branch " + heads.branch() + " has no builds.",
            heads), List.of());
      }
      h = head != null && !head.isBlank() ? head : lines.get(0).version();
      String built = h;
      b = base != null && !base.isBlank() ? base : lines.stream().filter(l -> l.version().equals(built))
          .findFirst().orElseThrow().startPoint();
      List<String> withBase = catalog.machinesWithBoth(p, b, b);
      both = lines.stream().filter(l -> l.version().equals(built)).map(Branches.BuildLine::machine)
          .filter(withBase::contains).distinct().sorted().toList();
    }
    String m = machine == null || machine.isBlank() ? null : machine;
    List<String> compared = m == null ? both : both.contains(m) ? List.of(m) : List.of();
    CompareTable.Slice slice = all || compared.isEmpty() ? new CompareTable.Slice(null, null)
        : table.slice(p, compared, from, BUDGET);
    // two released versions compare the same until runs of them arrive: cached against the data's stamp
    List<CompareTable.Row> rows = compared.isEmpty() ? List.of()
        : cache.get(String.join("\u0000", "compare", p, b, h, heads.branch() == null ? "" : heads.branch(),
            String.join(",", compared), slice.benchmarks() == null ? "*" : String.join(",", slice.benchmarks())),
            () -> table.rows(p, compared, b, h, heads.branch(), slice.benchmarks()));
    List<CompareTable.Row> shown = table.primary(rows);
    List<AcrossMachines> summary = m == null ? AcrossMachines.of(shown) : List.of();
    Paging paging = from == null && slice.next() == null ? Paging.NONE : new Paging(from, slice.next(), all,
        slice.next() == null ? null : pageUrl(p, b, h, heads.branch(), m, slice.next(), false),
        pageUrl(p, b, h, heads.branch(), m, null, true), pageUrl(p, b, h, heads.branch(), m, null, false));
    return new Built(new Page(products, p, versions, b, h, both, m, compared.size(), m == null ? List.of() : shown,
        summary, CompareTable.counts(shown), csvUrl(p, b, h, heads.branch(), m, from), null, null, paging, heads),
        rows);
  }

  /** Branch names the head-from field suggests: the most recently built (it takes any name typed). */
  static final int PICKER_BRANCHES = 50;

  /** The product's recent branches; {@code asked} when it is one of them (else the default branch). */
  private Head heads(String product, String asked) {
    List<String> names = branches.names(product, PICKER_BRANCHES);
    if (asked == null || asked.isBlank()) {
      return new Head(names, null, List.of(), null);
    }
    List<String> builds = branches.buildLines(product, asked)
        .map(l -> l.stream().map(Branches.BuildLine::version).distinct().toList()).orElse(null);
    return builds == null ? new Head(names, asked, null, null)
        : new Head(names, asked, builds, Branches.page(product, asked));
  }

  /** The same for a branch's build as head: the branch and its build must exist, base must be a default version. */
  private String unknownOnBranch(String asked, String product, List<String> recent, String base, String head,
      Head heads) {
    if (asked != null && !asked.isBlank() && !asked.equals(product)) {
      return noProduct(asked);
    }
    if (heads.builds() == null) {
      return product + " has no branch " + heads.branch() + (heads.branches().isEmpty() ? "."
          : "; its branches are " + String.join(", ", heads.branches().subList(0, Math.min(20,
              heads.branches().size()))) + ".");
    }
    if (head != null && !head.isBlank() && !heads.builds().contains(head)) {
      return "Branch " + heads.branch() + " has no build " + head + "; its builds are "
          + String.join(", ", heads.builds().subList(0, Math.min(20, heads.builds().size()))) + ".";
    }
    return unknown(asked, product, recent, base, null);
  }

  /** A product asked for by name that is not there: deleted (and where to restore it), or never there. */
  private String noProduct(String asked) {
    return deleted.product(asked).map(d -> d + "; an admin can restore it under Recently deleted.")
        .orElse("There is no product " + asked + ".");
  }

  private static String pageUrl(String product, String base, String head, String headBranch, String machine,
      String from, boolean all) {
    return Links.to("", "/compare", "product", product, "base", base, "head", head, "headBranch", headBranch,
        "machine", machine, "from", from, "all", all ? "true" : null);
  }

  /**
   * A product or version that was asked for by name and does not exist: said so (with the known
   * versions) rather than silently comparing others. Left out, the latest two are chosen.
   */
  private String unknown(String asked, String product, List<String> recent, String base, String head) {
    if (asked != null && !asked.isBlank() && !asked.equals(product)) {
      return noProduct(asked);
    }
    List<String> missing = java.util.stream.Stream.of(base, head)
        .filter(v -> v != null && !v.isBlank() && !catalog.hasVersion(product, v)).toList();
    List<String> newest = recent.subList(Math.max(0, recent.size() - 20), recent.size());
    return missing.isEmpty() ? null
        : product + " has no version " + String.join(" or ", missing) + "; its "
            + (newest.size() < recent.size() ? "newest versions" : "versions") + " are " + String.join(", ", newest)
            + ".";
  }

  private static Page empty(List<String> products, String product, List<String> versions, String base, String head,
      String problem, String hint) {
    return empty(products, product, versions, base, head, problem, hint, Head.DEFAULT);
  }

  private static Page empty(List<String> products, String product, List<String> versions, String base, String head,
      String problem, String hint, Head heads) {
    return new Page(products, product, versions, base, head, List.of(), null, 0, List.of(), List.of(),
        CompareTable.counts(List.of()), null, problem, hint, Paging.NONE, heads);
  }

  private static String csvUrl(String product, String base, String head, String headBranch, String machine,
      String from) {
    return Links.to("", "/compare.csv", "product", product, "base", base, "head", head, "headBranch", headBranch,
        "machine", machine, "from", from);
  }
}
