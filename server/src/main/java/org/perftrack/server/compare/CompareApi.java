package org.perftrack.server.compare;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import java.util.List;
import org.perftrack.server.detection.CompareService;
import org.perftrack.server.detection.ComparedMetric;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.pages.Catalog;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/compare?product=&machine=&base=&head=} → {@code {"rows": [...]}}; with {@code headBranch=},
 * {@code head} is a build of that branch (a pull request's) compared with the default branch's {@code base}. Without
 * {@code machine}: the compare page's rows over every machine that measured both versions ({@code acrossMachines}).
 */
@RestController
class CompareApi {

  /**
   * @param rows one machine's metrics (empty over all machines)
   * @param machines the machines compared: the one asked for, or every machine that measured both versions
   * @param acrossMachines without {@code machine}: one row per benchmark and metric over those machines (empty on one)
   */
  record CompareResponse(List<ComparedMetric> rows, List<String> machines, List<AcrossRow> acrossMachines) {}

  /**
   * One benchmark and metric over the machines, as the compare page shows it: how many machines say what, the middle
   * change and the range ({@code null} for a change from 0), the verdict (a regression when any machine's is one,
   * then improvement, inconclusive, unchanged) and the benchmark's other metrics at their middle change.
   */
  record AcrossRow(String benchmark, String metric, String unit, Direction direction, Verdict verdict, int machines,
      int regressions, int improvements, int unchanged, int inconclusive, int insufficientData, Double middleRatio,
      Double lowestRatio, Double highestRatio, List<OtherMetric> others) {

    static AcrossRow of(AcrossMachines a) {
      return new AcrossRow(a.benchmark(), a.metric(), a.unit(), a.direction(), a.verdict(), a.machines(),
          a.regressions(), a.improvements(), a.unchanged(), a.inconclusive(), a.insufficient(), finite(a.middleRatio()),
          finite(a.lowestRatio()), finite(a.highestRatio()), a.others().stream().map(OtherMetric::of).toList());
    }
  }

  /** Another metric of the row's benchmark: {@code partly} "on 2 of 4 machines" when not all measure it, else null. */
  record OtherMetric(String metric, Double middleRatio, Verdict verdict, int machines, int of, String partly) {

    static OtherMetric of(CompareTable.Other o) {
      return new OtherMetric(o.metric(), finite(o.ratio()), o.verdict(), o.machines(), o.of(), o.partly());
    }
  }

  private final CompareService compare;
  private final CompareTable table;
  private final Catalog catalog;

  CompareApi(CompareService compare, CompareTable table, Catalog catalog) {
    this.compare = compare;
    this.table = table;
    this.catalog = catalog;
  }

  @Operation(summary = "Two versions compared, on one machine or over all machines",
      description = "With machine: every metric of the two versions on that machine (rows). Without it: the compare "
          + "page's rows over every machine that measured both versions (machines, acrossMachines): per benchmark and "
          + "metric how many machines say regression, improvement, unchanged, inconclusive or not enough data, the "
          + "middle change, the range, and the benchmark's other metrics (\"on 2 of 4 machines\" when not all "
          + "measure them).")
  @GetMapping("/api/v1/compare")
  CompareResponse compare(@RequestParam String product,
      @Parameter(description = "one machine; leave out for every machine that measured both versions")
      @RequestParam(required = false) String machine, @RequestParam String base, @RequestParam String head,
      @RequestParam(required = false) String headBranch) {
    if (machine != null && !machine.isBlank()) {
      return new CompareResponse(compare.compare(product, List.of(machine), base, head, headBranch, null)
          .getOrDefault(machine, List.of()), List.of(machine), List.of());
    }
    if (headBranch != null && !headBranch.isBlank()) {
      throw new InvalidInput("machine", "is required with headBranch (a branch's build is compared on its machine)");
    }
    if (!catalog.products().contains(product)) {
      throw new NotFound("no product " + product);
    }
    List<String> machines = catalog.machinesWithBoth(product, base, head);
    List<CompareTable.Row> rows = machines.isEmpty() ? List.of()
        : table.primary(table.rows(product, machines, base, head, null, null));
    return new CompareResponse(List.of(), machines, AcrossMachines.of(rows).stream().map(AcrossRow::of).toList());
  }

  private static Double finite(double ratio) {
    return Double.isFinite(ratio) ? ratio : null;
  }
}
