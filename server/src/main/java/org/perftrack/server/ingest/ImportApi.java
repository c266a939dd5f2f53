package org.perftrack.server.ingest;

import jakarta.servlet.http.HttpServletRequest;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.server.web.BoundedInputStream;
import org.perftrack.server.web.LimitsProperties;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/runs:import}: a history as NDJSON, one run per line in the upload format, plain or gzip
 * ({@code Content-Encoding: gzip}, or a gzip body); or, with {@code Content-Type: text/csv}, the CSV layout of
 * {@link CsvRuns}. The answer counts created, unchanged and bad lines and lists
 * the bad ones by line number; only an import with no good line at all is a 400.
 */
@RestController
class ImportApi {

  private final ImportService imports;
  private final LimitsProperties limits;

  ImportApi(ImportService imports, LimitsProperties limits) {
    this.imports = imports;
    this.limits = limits;
  }

  @PostMapping("/api/v1/runs:import")
  ImportService.Report importRuns(HttpServletRequest request) throws IOException {
    try (InputStream body = ndjson(request)) {
      String type = request.getContentType();
      boolean csv = type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith("text/csv");
      ImportService.Report report = csv
          ? imports.importCsv(body, limits.maxImportLineBytes(), limits.maxImportLines())
          : imports.importRuns(body, limits.maxImportLineBytes(), limits.maxImportLines());
      if (report.created() + report.unchanged() == 0 && report.failed() > 0) {
        throw new InvalidInput("no line of the import could be stored; line "
            + report.errors().get(0).line() + ": " + report.errors().get(0).problems().get(0).field() + " "
            + report.errors().get(0).problems().get(0).message(),
            report.errors().stream().flatMap(e -> e.problems().stream()
                .map(p -> new FieldProblem("line " + e.line() + ": " + p.field(), p.message()))).limit(50).toList());
      }
      return report;
    }
  }

  /** The body, gunzipped when it is gzip, never more than the import limit after gunzip either. */
  private InputStream ndjson(HttpServletRequest request) throws IOException {
    InputStream in = new BufferedInputStream(request.getInputStream(), 64 * 1024);
    in.mark(2);
    int first = in.read();
    int second = in.read();
    in.reset();
    boolean gzip = "gzip".equalsIgnoreCase(request.getHeader("Content-Encoding")) || (first == 0x1f && second == 0x8b);
    if (!gzip) {
      return in;
    }
    // refuses to inflate past the limit: a small gzip can unpack to gigabytes
    return new BoundedInputStream(new GZIPInputStream(in, 64 * 1024), limits.maxImportBytes().toBytes());
  }
}
