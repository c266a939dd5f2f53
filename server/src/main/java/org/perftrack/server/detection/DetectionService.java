package org.perftrack.server.detection;

import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Service;

/** Decides, after each stored run, which series stepped; the detection issue fills this in. */
@Service
public class DetectionService {

  /** Called inside the ingest transaction; returns the regressions this run created. */
  public List<RegressionView> onRunStored(StoredRun run) {
    return List.of();
  }

  /** The regressions a run created when it was first stored (for an idempotent re-send). */
  public List<RegressionView> createdBy(UUID runId) {
    return List.of();
  }
}
