package org.perftrack.server.series;

import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The series chart's points, which the series page's script fetches: every version from {@code from} to
 * {@code to} (or the newest {@code last}), in buckets when there are more than the chart can show
 * ({@link ChartPoints}). Errors are problem details naming the parameter.
 */
@RestController
class SeriesChartApi {

  private final SeriesChart charts;

  SeriesChartApi(SeriesChart charts) {
    this.charts = charts;
  }

  @GetMapping(path = "/products/{product}/series/chart", produces = "application/json")
  ChartPoints.Chart chart(@PathVariable String product, @RequestParam String benchmark, @RequestParam String metric,
      @RequestParam(required = false) String machine, @RequestParam(required = false) String from,
      @RequestParam(required = false) String to, @RequestParam(defaultValue = "0") int last) {
    if (last < 0) {
      throw new InvalidInput("last", "must be 0 (a range) or a positive number of versions");
    }
    return charts.chart(product, benchmark, metric, machine, from, to, last)
        .orElseThrow(() -> new NotFound("no series " + benchmark + " " + metric + " of " + product));
  }
}
