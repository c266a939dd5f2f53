package org.perftrack.server.runs;

import java.util.List;
import java.util.UUID;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.changes.ChangeLinks;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/runs/{id}/report?format=markdown|junit|json}: what one run showed, metric by metric, as a pull
 * request comment, a JUnit test report, or JSON.
 */
@RestController
class RunReportApi {

  private static final MediaType MARKDOWN = new MediaType("text", "markdown", java.nio.charset.StandardCharsets.UTF_8);

  private final RunReports reports;
  private final SiteProperties site;
  private final RunQueries runs;
  private final ChangeLinks changes;

  RunReportApi(RunReports reports, SiteProperties site, RunQueries runs, ChangeLinks changes) {
    this.reports = reports;
    this.site = site;
    this.runs = runs;
    this.changes = changes;
  }

  @GetMapping("/api/v1/runs/{id}/report")
  ResponseEntity<?> report(@PathVariable String id, @RequestParam(defaultValue = "markdown") String format,
      Authentication who) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new InvalidInput("id", "must be a UUID");
    }
    if (!format.equals("markdown") && !format.equals("junit") && !format.equals("json")) {
      throw new InvalidInput("format", "must be markdown, junit or json, got: " + format);
    }
    RunReports.Report report = reports.of(uuid).filter(r -> runs.readable(uuid, who))
        .orElseThrow(() -> new NotFound("no run " + id));
    // links start with perftrack.public-url (its default when unset, as the start-up log says), never with the
    // request's Host header: whoever can reach the server would choose where a CI bot's comment points
    String base = site.publicUrl().toString().replaceAll("/+$", "");
    return switch (format) {
      case "junit" -> ResponseEntity.ok().contentType(MediaType.APPLICATION_XML).body(ReportText.junit(report, base));
      case "json" -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(report);
      default -> ResponseEntity.ok().contentType(MARKDOWN).body(ReportText.markdown(report, base, changed(report)));
    };
  }

  /**
   * The links to what changed from each baseline of the run's changed rows to its version (a default-branch run:
   * a branch's build is no version of the product); a range's only where the two versions are adjacent.
   */
  private List<ChangeLinks.OfStep> changed(RunReports.Report report) {
    if (report.branch() != null || report.waiting()) {
      return List.of();
    }
    return report.rows().stream().filter(RunReports.Row::changed).map(RunReports.Row::baselineVersion)
        .filter(java.util.Objects::nonNull).distinct().sorted()
        .map(b -> changes.compared(report.product(), b, report.version()))
        .filter(c -> c.range() != null || c.version() != null).toList();
  }
}
