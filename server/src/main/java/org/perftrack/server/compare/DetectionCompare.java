package org.perftrack.server.compare;

import java.util.List;
import org.springframework.stereotype.Service;

/** Adapts detection's comparison to the compare page. */
@Service
class DetectionCompare implements CompareSource {

  @Override
  public List<Row> compare(String product, String machine, String base, String head) {
    return List.of();
  }
}
