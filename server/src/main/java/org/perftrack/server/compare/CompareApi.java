package org.perftrack.server.compare;

import java.util.List;
import org.perftrack.server.detection.CompareService;
import org.perftrack.server.detection.ComparedMetric;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/compare?product=&machine=&base=&head=} → {@code {"rows": [...]}}; with {@code headBranch=},
 * {@code head} is a build of that branch (a pull request's) compared with the default branch's {@code base}.
 */
@RestController
class CompareApi {

  record CompareResponse(List<ComparedMetric> rows) {}

  private final CompareService compare;

  CompareApi(CompareService compare) {
    this.compare = compare;
  }

  @GetMapping("/api/v1/compare")
  CompareResponse compare(@RequestParam String product, @RequestParam String machine, @RequestParam String base,
      @RequestParam String head, @RequestParam(required = false) String headBranch) {
    return new CompareResponse(compare.compare(product, java.util.List.of(machine), base, head, headBranch, null)
        .getOrDefault(machine, List.of()));
  }
}
