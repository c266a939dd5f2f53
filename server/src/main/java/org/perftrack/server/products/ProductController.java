package org.perftrack.server.products;

import java.util.List;
import org.perftrack.server.branches.Branches;
import org.perftrack.server.compare.Overhead;
import org.perftrack.server.dashboard.DataCache;
import org.perftrack.server.dashboard.DeletedPages;
import org.perftrack.server.detection.DetectionProperties;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** The product page and the series page (one benchmark/metric of a product, every machine). */
@Controller
class ProductController {

  /** Versions the sparklines cover: enough to see a trend, bounded so the page cost does not grow with history. */
  static final int WINDOW = 40;

  private final ProductQueries products;
  private final SeriesChart charts;
  private final DataCache cache;

  private final DetectionProperties detection;
  private final Overhead overhead;
  private final Branches branches;
  private final DeletedPages deleted;

  ProductController(ProductQueries products, SeriesChart charts, DataCache cache, DetectionProperties detection,
      Overhead overhead, Branches branches, DeletedPages deleted) {
    this.deleted = deleted;
    this.branches = branches;
    this.overhead = overhead;
    this.products = products;
    this.charts = charts;
    this.cache = cache;
    this.detection = detection;
  }

  /**
   * The product page: one page of its benchmarks ({@link ProductPage#PAGE_SERIES} sparklines), those after the
   * benchmark {@code after}, whose benchmark and metric contain every word of {@code filter}.
   */
  @GetMapping("/products/{product}")
  String product(@PathVariable String product, @RequestParam(required = false) String after,
      @RequestParam(required = false) String filter, Model model) {
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
    model.addAttribute("branches", branches.list(product));
    return "products/product";
  }

  @GetMapping("/products/{product}/series")
  String series(@PathVariable String product, @RequestParam String benchmark, @RequestParam String metric,
      @RequestParam(required = false) String machine, @RequestParam(required = false) String against,
      @RequestParam(required = false) String baseMachine, @RequestParam(required = false) String olderThan,
      Model model) {
    SeriesChart.View view = charts.page(product, benchmark, metric, machine, olderThan)
        .orElseThrow(() -> deleted.noProduct(product, "no series " + benchmark + " " + metric + " of " + product));
    model.addAttribute("view", view);
    // the cost of the layer over its versions, against another product's version on the same machine
    String one = view.machines().size() == 1 ? view.machines().get(0) : null;
    model.addAttribute("baselines", one == null ? List.of() : overhead.baselines(product, one, benchmark, metric));
    if (one != null && Overhead.isProductAtVersion(against)) {
      String bm = baseMachine == null || baseMachine.isBlank() ? one : baseMachine;
      model.addAttribute("overTime", overhead.overTime(product, one, benchmark, metric,
          Overhead.side(against, bm, "against")).orElse(null));
    }
    return "products/series";
  }
}
