package org.perftrack.server.products;

import java.util.List;
import org.perftrack.server.compare.Overhead;
import org.perftrack.server.dashboard.DataCache;
import org.perftrack.server.dashboard.PageNotFound;
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

  ProductController(ProductQueries products, SeriesChart charts, DataCache cache, DetectionProperties detection,
      Overhead overhead) {
    this.overhead = overhead;
    this.products = products;
    this.charts = charts;
    this.cache = cache;
    this.detection = detection;
  }

  @GetMapping("/products/{product}")
  String product(@PathVariable String product, Model model) {
    long id = products.productId(product).orElseThrow(() -> new PageNotFound("no product " + product));
    model.addAttribute("page", cache.get("product\u0000" + product, () -> {
      List<ProductQueries.Version> window = products.recentVersions(id, WINDOW);
      return ProductPage.of(product, products.versionCount(id), window, window.isEmpty() ? List.of() : products.trends(id, window),
          detection::isSecondary, products.openRegressions(id));
    }));
    return "products/product";
  }

  @GetMapping("/products/{product}/series")
  String series(@PathVariable String product, @RequestParam String benchmark, @RequestParam String metric,
      @RequestParam(required = false) String machine, @RequestParam(required = false) String against,
      @RequestParam(required = false) String baseMachine, @RequestParam(required = false) String olderThan,
      Model model) {
    SeriesChart.View view = charts.page(product, benchmark, metric, machine, olderThan)
        .orElseThrow(() -> new PageNotFound("no series " + benchmark + " " + metric + " of " + product));
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
