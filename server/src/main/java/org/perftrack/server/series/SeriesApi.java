package org.perftrack.server.series;

import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.wire.Quantities;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SeriesApi {

  private final SeriesQueries series;

  SeriesApi(SeriesQueries series) {
    this.series = series;
  }

  /** The most versions {@code last} may ask for (more: leave it out and get the whole series). */
  static final int MAX_LAST = 10_000;

  /** Every version of the series in version order, or with {@code last} only the newest {@code last}. */
  @GetMapping("/api/v1/series")
  SeriesQueries.Series series(@RequestParam String product, @RequestParam String machine,
      @RequestParam String benchmark, @RequestParam String metric, @RequestParam(required = false) Integer last) {
    if (last != null && (last < 1 || last > MAX_LAST)) {
      throw new InvalidInput("last", "must be between 1 and " + Quantities.count(MAX_LAST)
          + " (leave it out for every version)");
    }
    return series.find(product, machine, benchmark, metric, last).orElseThrow(() -> new NotFound(
        "no series " + benchmark + " " + metric + " of " + product + " on machine " + machine));
  }
}
