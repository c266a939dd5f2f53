package org.perftrack.server.compare;

import java.util.List;
import org.perftrack.server.detection.DetectionPages;
import org.springframework.stereotype.Service;

/** Detection's comparison (the one behind GET /api/v1/compare), for the compare page. */
@Service
class DetectionCompare implements CompareSource {

  private final DetectionPages detection;

  DetectionCompare(DetectionPages detection) {
    this.detection = detection;
  }

  @Override
  public List<Row> compare(String product, String machine, String base, String head) {
    return detection.compare(product, machine, base, head).stream()
        .map(r -> new Row(r.benchmark(), r.metric(), r.unit(), r.direction(), r.baseValue(), r.headValue(), r.ratio(),
            r.pValue(), r.verdict(), r.paired()))
        .toList();
  }
}
