package org.perftrack.server.series;

import java.util.List;
import org.perftrack.server.compare.Overhead;
import org.perftrack.server.pages.DeletedNotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/** The series page: one benchmark/metric of a product, every machine; its chart's points come from SeriesChartApi. */
@Controller
class SeriesPages {

  private final SeriesChart charts;
  private final Overhead overhead;
  private final DeletedNotFound deleted;
  private final SeriesQueries queries;

  SeriesPages(SeriesChart charts, Overhead overhead, DeletedNotFound deleted, SeriesQueries queries) {
    this.queries = queries;
    this.charts = charts;
    this.overhead = overhead;
    this.deleted = deleted;
  }

  @GetMapping("/products/{product}/series")
  String series(@PathVariable String product, @RequestParam String benchmark, @RequestParam String metric,
      @RequestParam(required = false) String machine, @RequestParam(required = false) String against,
      @RequestParam(required = false) String baseMachine, @RequestParam(required = false) String olderThan,
      Model model) {
    SeriesChart.View view = charts.page(product, benchmark, metric, machine, olderThan)
        .orElseThrow(() -> deleted.noProduct(product, "no series " + benchmark + " " + metric + " of " + product));
    model.addAttribute("view", view);
    model.addAttribute("excluded", queries.excluded(product, benchmark, metric, machine));
    // the cost of the layer over its versions, against another product's version on the same machine
    String one = view.machines().size() == 1 ? view.machines().get(0) : null;
    model.addAttribute("baselines", one == null ? List.of() : overhead.baselines(product, one, benchmark, metric));
    if (one != null && Overhead.isProductAtVersion(against)) {
      String bm = baseMachine == null || baseMachine.isBlank() ? one : baseMachine;
      model.addAttribute("overTime", overhead.overTime(product, one, benchmark, metric,
          Overhead.side(against, bm, "against")).orElse(null));
    }
    return "series/series";
  }
}
