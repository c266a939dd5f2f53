package org.perftrack.server.ingest;

import java.util.ArrayList;
import java.util.List;
import org.perftrack.formats.FormatException;
import org.perftrack.formats.Formats;
import org.perftrack.formats.ResultFormat;
import org.perftrack.formats.RunContext;
import org.perftrack.server.alerts.ProfileLink;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.wire.FileRunId;
import org.perftrack.wire.RunUpload;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/runs?format=F&product=&version=&machine=} with another tool's own result file as the
 * body (hyperfine, Google Benchmark, JMH, Criterion's folder as a zip, … : {@code FormatNames.ALL}), so that a CI job needs only curl. The file is
 * converted by the formats module, then stored by {@link IngestService} exactly like a run upload.
 */
@RestController
class ForeignRunsApi {

  private static final String PERFTRACK = "perftrack";

  private final IngestService ingest;
  private final List<ProfileLink> profiles;

  ForeignRunsApi(IngestService ingest, List<ProfileLink> profiles) {
    this.ingest = ingest;
    this.profiles = profiles;
  }

  @PostMapping(path = "/api/v1/runs", params = "format")
  ResponseEntity<RunUploadApi.UploadResponse> upload(
      @RequestParam String format,
      @RequestParam(required = false) String product,
      @RequestParam(required = false) String version,
      @RequestParam(required = false) String machine,
      @RequestParam(required = false) String id,
      @RequestParam(required = false) String branch,
      @RequestParam(required = false) String startPoint,
      @RequestBody(required = false) byte[] body) {
    RunUpload converted = convert(format(format), new RunContext(product, version, machine, id), body, branch);
    RunUpload run = branch == null && startPoint == null ? converted : converted.onBranch(branch, startPoint);
    IngestService.Outcome outcome = ingest.ingest(run);
    return ResponseEntity.status(outcome.created() ? HttpStatus.CREATED : HttpStatus.OK)
        .header(HttpHeaders.LOCATION, "/api/v1/runs/" + outcome.id())
        .body(RunUploadApi.UploadResponse.of(outcome, profiles));
  }

  private static ResultFormat format(String name) {
    try {
      return Formats.byName(name);
    } catch (FormatException e) {
      throw new InvalidInput("format", e.getMessage());
    }
  }

  private static RunUpload convert(ResultFormat format, RunContext context, byte[] body, String branch) {
    if (!format.name().equals(PERFTRACK)) {
      requireTags(context);
    }
    byte[] file = body == null ? new byte[0] : body;
    RunContext withId = context.runId() != null || format.name().equals(PERFTRACK) ? context
        : new RunContext(context.product(), context.version(), context.machine(), sameFileSameId(format, context, file, branch));
    try {
      return format.convert(file, "body", withId);
    } catch (FormatException e) {
      String detail = "format '" + format.name() + "': " + e.getMessage();
      throw new InvalidInput(detail, List.of(new FieldProblem("body", detail)));
    }
  }

  /** Other tools' files do not say what they measured; the query must. */
  private static void requireTags(RunContext context) {
    List<FieldProblem> missing = new ArrayList<>();
    if (isBlank(context.product())) {
      missing.add(new FieldProblem("product", "is required with ?format= (the product the file measured)"));
    }
    if (isBlank(context.version())) {
      missing.add(new FieldProblem("version", "is required with ?format= (the version under test)"));
    }
    if (isBlank(context.machine())) {
      missing.add(new FieldProblem("machine", "is required with ?format= (the machine or runner it ran on)"));
    }
    if (!missing.isEmpty()) {
      throw new InvalidInput(missing);
    }
  }

  /** A file sent without an id: the same file with the same tags is the same run ({@link FileRunId}). */
  static String sameFileSameId(ResultFormat format, RunContext context, byte[] file, String branch) {
    return FileRunId.of(format.name(), context.product(), context.version(), context.machine(), branch, file);
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
