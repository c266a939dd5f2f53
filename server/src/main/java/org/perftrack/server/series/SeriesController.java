package org.perftrack.server.series;

import java.util.UUID;
import org.perftrack.server.web.ApiProblem;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class SeriesController {

  private final SeriesQueries series;
  private final RunQueries runs;

  SeriesController(SeriesQueries series, RunQueries runs) {
    this.series = series;
    this.runs = runs;
  }

  @GetMapping("/api/v1/series")
  SeriesQueries.Series series(@RequestParam String product, @RequestParam String machine,
      @RequestParam String benchmark, @RequestParam String metric) {
    return series.find(product, machine, benchmark, metric).orElseThrow(() -> ApiProblem.notFound(
        "no series " + benchmark + " " + metric + " of " + product + " on machine " + machine));
  }

  @GetMapping("/api/v1/runs/{id}")
  RunQueries.StoredRunView run(@PathVariable String id) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw ApiProblem.badRequest("id", "must be a UUID");
    }
    return runs.find(uuid).orElseThrow(() -> ApiProblem.notFound("no run " + id));
  }
}
