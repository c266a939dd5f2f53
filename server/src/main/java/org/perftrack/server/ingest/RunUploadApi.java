package org.perftrack.server.ingest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.perftrack.server.alerts.ProfileLink;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.WaitingChange;
import org.perftrack.server.summaries.Summaries;
import org.perftrack.wire.RunUpload;
import org.perftrack.server.security.TokenPrincipal;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class RunUploadApi {

  /**
   * The answer to an upload: the run's id, the regressions it created (a step at the newest version unconfirmed),
   * the regressions earlier uploads reported unconfirmed that it confirmed, and the summaries it opened or grew; for
   * a branch run its branch and the start point it was judged against (left out for the default branch); the changes
   * at its version that wait for one more build before they are reported (not for a re-send: they are not stored);
   * for a run of a session that gave {@code batchSize}, where its session stands (left out otherwise): until the
   * session's runs are all stored its regressions are empty, and the upload that completes it lists those of all
   * the session's runs; for a branch run, its inconclusive changes (those the default branch would report once one
   * more build shows them: a branch build is judged once, so they do not fail the check; left out for the default
   * branch); {@code profiles}: the listed regressions whose profile is done, queued or running, with the path of
   * its "Why" card (left out when none is).
   */
  record UploadResponse(String id, List<Regression> regressions, List<Regression> confirmed,
      List<Summaries.Change> summaries, @JsonInclude(JsonInclude.Include.NON_NULL) String branch,
      @JsonInclude(JsonInclude.Include.NON_NULL) String startPoint, List<WaitingChange> waiting,
      @JsonInclude(JsonInclude.Include.NON_NULL) Sessions.SessionProgress session,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<WaitingChange> inconclusive,
      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Profiled> profiles) {

    static UploadResponse of(IngestService.Outcome outcome, List<ProfileLink> links) {
      List<Profiled> profiles = java.util.stream.Stream.concat(outcome.regressions().stream(),
              outcome.confirmed().stream())
          .flatMap(r -> links.stream().map(l -> l.path(r)).filter(java.util.Objects::nonNull).limit(1)
              .map(path -> new Profiled(r.id(), path)))
          .distinct().toList();
      return new UploadResponse(outcome.id().toString(), outcome.regressions(), outcome.confirmed(),
          outcome.summaries(), outcome.branch(), outcome.startPoint(), outcome.waiting(), outcome.session(),
          outcome.inconclusive(), profiles);
    }
  }

  /** A listed regression whose profile (the "Why" card) is done, queued or running: the path of the card. */
  record Profiled(long regression, String path) {}

  private final IngestService ingest;
  private final List<ProfileLink> profiles;

  RunUploadApi(IngestService ingest, List<ProfileLink> profiles) {
    this.ingest = ingest;
    this.profiles = profiles;
  }

  @PostMapping(path = "/api/v1/runs", consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<UploadResponse> upload(@RequestBody RunUpload run, Authentication who) {
    IngestService.Outcome outcome = ingest.ingest(run,
        who != null && who.getPrincipal() instanceof TokenPrincipal token ? token.tokenId() : null);
    return ResponseEntity.status(outcome.created() ? HttpStatus.CREATED : HttpStatus.OK)
        .header("Location", "/api/v1/runs/" + outcome.id())
        .body(UploadResponse.of(outcome, profiles));
  }
}
