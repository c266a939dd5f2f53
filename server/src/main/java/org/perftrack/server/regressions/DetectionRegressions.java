package org.perftrack.server.regressions;

import java.util.List;
import java.util.Optional;
import org.perftrack.server.detection.DetectionPages;
import org.springframework.stereotype.Service;

/** Detection's regression records, as the pages show them. */
@Service
class DetectionRegressions implements RegressionSource {

  private final DetectionPages detection;

  DetectionRegressions(DetectionPages detection) {
    this.detection = detection;
  }

  @Override
  public List<Listed> list(String product, String machine, List<String> statuses, int limit) {
    return detection.regressions(product, machine, statuses, limit).stream().map(DetectionRegressions::listed).toList();
  }

  @Override
  public Optional<Listed> find(long id) {
    return detection.regression(id).map(DetectionRegressions::listed);
  }

  @Override
  public Optional<Listed> triage(long id, String status, String note, String by) {
    return detection.triage(id, status, note, by).map(DetectionRegressions::listed);
  }

  private static Listed listed(DetectionPages.Regression r) {
    return new Listed(r.id(), r.product(), r.machine(), r.benchmark(), r.metric(), r.unit(), r.direction(),
        r.baselineVersion(), r.version(), r.baselineValue(), r.value(), r.ratio(), r.pValue(), r.status(),
        r.detectedAt(), r.note(), r.triagedBy(),
        r.hints().stream().map(h -> new Listed.Hint(h.metric(), h.unit(), h.baselineValue(), h.value(), h.ratio()))
            .toList(),
        Listed.severityOf(r.ratio(), r.direction()));
  }
}
