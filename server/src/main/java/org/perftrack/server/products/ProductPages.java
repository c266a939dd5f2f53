package org.perftrack.server.products;

import java.util.List;
import org.perftrack.server.branches.Branches;
import org.perftrack.server.web.Links;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.pages.DataCache;
import org.perftrack.server.pages.DeletedNotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** The product page: its benchmarks as sparklines (the series page is series/SeriesPages). */
@Controller
class ProductPages {

  /** Versions the sparklines cover: enough to see a trend, bounded so the page cost does not grow with history. */
  static final int WINDOW = 40;

  private final ProductQueries products;
  private final DataCache cache;

  private final DetectionProperties detection;
  private final Branches branches;
  private final DeletedNotFound deleted;

  ProductPages(ProductQueries products, DataCache cache, DetectionProperties detection, Branches branches,
      DeletedNotFound deleted) {
    this.deleted = deleted;
    this.branches = branches;
    this.products = products;
    this.cache = cache;
    this.detection = detection;
  }

  /**
   * The product page: one page of its benchmarks ({@link ProductPage#PAGE_SERIES} sparklines), those after the
   * benchmark {@code after}, whose benchmark and metric contain every word of {@code filter}.
   */
  /** Branches the product page lists at once. */
  static final int BRANCHES_SHOWN = 50;

  @GetMapping("/products/{product}")
  String product(@PathVariable String product, @RequestParam(required = false) String after,
      @RequestParam(required = false) String filter, @RequestParam(required = false) String branchesAfter,
      Model model) {
    long id = products.productId(product).orElseThrow(() -> deleted.noProduct(product, "no product " + product));
    String from = after == null || after.isBlank() ? null : after;
    String words = filter == null || filter.isBlank() ? null : filter.strip();
    model.addAttribute("page", cache.get("product\u0000" + product + "\u0000" + from + "\u0000" + words, () -> {
      List<ProductQueries.Version> window = products.recentVersions(id, WINDOW);
      ProductPage.Slice slice = ProductPage.Slice.of(products.series(id), from, words, detection::isSecondary,
          ProductPage.PAGE_SERIES);
      return ProductPage.of(product, products.versionCount(id), window, slice,
          window.isEmpty() ? List.of() : products.trends(slice.series(), slice.latestOnly(), window),
          detection::isSecondary, products.openRegressions(id));
    }));
    // a page of branches at a time (a product may have a thousand): "More branches" goes on after the last shown
    Branches.Page branchPage = branches.list(product, branchesAfter == null || branchesAfter.isBlank() ? null
        : branchesAfter, BRANCHES_SHOWN);
    model.addAttribute("branches", branchPage.items());
    model.addAttribute("moreBranches", branchPage.next() == null ? null : Links.to("", "/products/"
        + Links.segment(product), "branchesAfter", branchPage.next()) + "#branches");
    return "products/product";
  }
}
