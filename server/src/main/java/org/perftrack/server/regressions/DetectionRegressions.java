package org.perftrack.server.regressions;

import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Service;

/** Adapts detection's regression records to the pages. */
@Service
class DetectionRegressions implements RegressionSource {

  @Override
  public List<Listed> list(String product, String machine, List<String> statuses, int limit) {
    return List.of();
  }

  @Override
  public Optional<Listed> find(long id) {
    return Optional.empty();
  }

  @Override
  public Optional<Listed> triage(long id, String status, String note, String by) {
    return Optional.empty();
  }
}
