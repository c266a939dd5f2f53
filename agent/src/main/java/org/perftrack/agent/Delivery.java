package org.perftrack.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.Spool;
import org.perftrack.agent.upload.SpoolSender;
import org.perftrack.agent.upload.Uploader;

/** Sends the spool and turns what happened into the exit code documented in {@code --help}. */
final class Delivery {

  private Delivery() {}

  static int sendSpool(Spool spool, String server, String token, Uploader.Retry retry, boolean failOnRegression,
      PrintWriter out) throws IOException, InterruptedException {
    SpoolSender.Summary summary = new SpoolSender(spool, new Uploader(server, token, retry), out).sendAll();
    for (JsonNode r : summary.regressions()) {
      out.printf("REGRESSION %s %s: %s -> %s: %s -> %s %s (x%s)%n", text(r, "benchmark"), text(r, "metric"),
          text(r, "baselineVersion"), text(r, "version"), number(r, "baselineValue"), number(r, "value"),
          text(r, "unit"), number(r, "ratio"));
    }
    out.printf("%s uploaded, %d rejected, %d waiting in the spool, %s%n", Words.count(summary.stored(), "run"),
        summary.rejected(), summary.left(), Words.count(summary.regressions().size(), "regression"));
    out.flush();
    if (summary.rejected() > 0 || summary.refused()) {
      return ExitCode.ERROR;
    }
    if (failOnRegression && !summary.regressions().isEmpty()) {
      return ExitCode.REGRESSION;
    }
    return summary.left() > 0 ? ExitCode.SPOOLED : ExitCode.OK;
  }

  /** Four significant digits: enough to read a regression, unlike a double's seventeen. */
  private static String number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isNumber()) {
      return "?";
    }
    return new java.math.BigDecimal(value.asDouble()).round(new java.math.MathContext(4)).stripTrailingZeros()
        .toPlainString();
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? "?" : value.asText();
  }
}
