package org.perftrack.server.ingest;

import java.util.List;
import org.perftrack.formats.RunUpload;
import org.perftrack.server.detection.Regression;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class RunsController {

  /** The answer to an upload: the run's id and the regressions it created. */
  record UploadResponse(String id, List<Regression> regressions) {}

  private final IngestService ingest;

  RunsController(IngestService ingest) {
    this.ingest = ingest;
  }

  @PostMapping(path = "/api/v1/runs", consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<UploadResponse> upload(@RequestBody RunUpload run) {
    IngestService.Outcome outcome = ingest.ingest(run);
    return ResponseEntity.status(outcome.created() ? HttpStatus.CREATED : HttpStatus.OK)
        .header("Location", "/api/v1/runs/" + outcome.id())
        .body(new UploadResponse(outcome.id().toString(), outcome.regressions()));
  }
}
