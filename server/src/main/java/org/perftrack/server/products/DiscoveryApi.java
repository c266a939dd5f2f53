package org.perftrack.server.products;

import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.wire.Quantities;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/products}, {@code /api/v1/products/{p}/machines}, {@code /versions} and {@code /benchmarks}:
 * {@code {"items": [...], "next": …}}, a page of {@code limit} items (default 100, at most 1000) after {@code after};
 * {@code next} is the {@code after} of the next page, null on the last.
 */
@RestController
class DiscoveryApi {

  static final int DEFAULT_LIMIT = 100;
  static final int MAX_LIMIT = 1000;

  private final Discovery discovery;
  private final ProductQueries products;

  DiscoveryApi(Discovery discovery, ProductQueries products) {
    this.discovery = discovery;
    this.products = products;
  }

  @GetMapping("/api/v1/products")
  Discovery.Page<Discovery.Product> products(@RequestParam(required = false) String after,
      @RequestParam(required = false) Integer limit) {
    return discovery.products(after, limit(limit));
  }

  @GetMapping("/api/v1/products/{product}/machines")
  Discovery.Page<Discovery.Machine> machines(@PathVariable String product,
      @RequestParam(required = false) String after, @RequestParam(required = false) Integer limit) {
    return discovery.machines(productId(product), after, limit(limit));
  }

  /** Versions in version order (oldest first), or newest first with {@code order=newest}; {@code machine}: measured there. */
  @GetMapping("/api/v1/products/{product}/versions")
  Discovery.Page<Discovery.Version> versions(@PathVariable String product,
      @RequestParam(required = false) String machine, @RequestParam(defaultValue = "oldest") String order,
      @RequestParam(required = false) String after, @RequestParam(required = false) Integer limit) {
    if (!order.equals("oldest") && !order.equals("newest")) {
      throw new InvalidInput("order", "must be oldest or newest, got: " + order);
    }
    return discovery.versions(productId(product), machine == null || machine.isBlank() ? null : machine.strip(),
        order.equals("newest"), after, limit(limit));
  }

  /** Each benchmark's metrics with their unit, direction and how many machines measure them. */
  @GetMapping("/api/v1/products/{product}/benchmarks")
  Discovery.Page<Discovery.Metric> benchmarks(@PathVariable String product,
      @RequestParam(required = false) String after, @RequestParam(required = false) Integer limit) {
    return discovery.benchmarks(productId(product), after, limit(limit));
  }

  private long productId(String product) {
    return products.productId(product).orElseThrow(() -> new NotFound("no product " + product));
  }

  private static int limit(Integer limit) {
    if (limit == null) {
      return DEFAULT_LIMIT;
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInput("limit", "must be between 1 and " + Quantities.count(MAX_LIMIT) + ", got: " + limit);
    }
    return limit;
  }
}
