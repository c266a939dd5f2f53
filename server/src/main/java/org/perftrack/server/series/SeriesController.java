package org.perftrack.server.series;

import org.perftrack.server.problems.NotFound;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SeriesController {

  private final SeriesQueries series;

  SeriesController(SeriesQueries series) {
    this.series = series;
  }

  @GetMapping("/api/v1/series")
  SeriesQueries.Series series(@RequestParam String product, @RequestParam String machine,
      @RequestParam String benchmark, @RequestParam String metric) {
    return series.find(product, machine, benchmark, metric).orElseThrow(() -> new NotFound(
        "no series " + benchmark + " " + metric + " of " + product + " on machine " + machine));
  }
}
