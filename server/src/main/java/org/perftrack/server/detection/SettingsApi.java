package org.perftrack.server.detection;

import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Per-benchmark detection settings: {@code GET /api/v1/benchmark-settings?product=} and
 * {@code PUT /api/v1/benchmark-settings/{product}/{benchmark}} with {@code {"minChange": 0.05, "ignored": false}}
 * ({@code minChange} null or absent: the default, max(2 %, noise)).
 */
@RestController
@RequestMapping("/api/v1/benchmark-settings")
class SettingsApi {

  record SettingRequest(Double minChange, Boolean ignored) {}

  private final BenchmarkSettings settings;

  SettingsApi(BenchmarkSettings settings) {
    this.settings = settings;
  }

  @GetMapping
  List<BenchmarkSettings.Setting> list(@RequestParam String product) {
    return settings.list(productId(product));
  }

  @PutMapping("/{product}/{benchmark}")
  BenchmarkSettings.Setting save(@PathVariable String product, @PathVariable String benchmark,
      @RequestBody SettingRequest request, Authentication who) {
    if (request.minChange() != null && !(request.minChange() >= 0 && request.minChange() < 10)) {
      throw new InvalidInput("minChange", "must be a fraction in [0, 10), e.g. 0.05 for 5%");
    }
    var setting = new BenchmarkSettings.Setting(benchmark, request.minChange(),
        request.ignored() != null && request.ignored());
    settings.save(productId(product), setting, who.getName());
    return setting;
  }

  private long productId(String product) {
    return settings.productId(product).orElseThrow(() -> new NotFound("no product " + product));
  }
}
