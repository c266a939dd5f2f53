package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import org.perftrack.agent.upload.Spool;
import org.perftrack.agent.upload.SpoolSender;
import org.perftrack.agent.upload.Uploader;
import tools.jackson.databind.JsonNode;

/** Sends the spool and turns what happened into the exit code documented in {@code --help}. */
final class Delivery {

  private Delivery() {}

  static int sendSpool(Spool spool, String server, String token, Uploader.Retry retry, boolean failOnRegression,
      PrintWriter out) throws IOException, InterruptedException {
    SpoolSender.Summary summary = new SpoolSender(spool, new Uploader(server, token, retry), out).sendAll();
    for (JsonNode r : summary.regressions()) {
      out.printf("REGRESSION %s %s: %s -> %s, ratio %s%n", text(r, "benchmark"), text(r, "metric"),
          text(r, "baselineVersion"), text(r, "version"), text(r, "ratio"));
    }
    out.printf("%d run(s) uploaded, %d rejected, %d waiting in the spool, %d regression(s)%n",
        summary.stored(), summary.rejected(), summary.left(), summary.regressions().size());
    out.flush();
    if (summary.rejected() > 0 || summary.refused()) {
      return Main.ERROR;
    }
    if (failOnRegression && !summary.regressions().isEmpty()) {
      return Main.REGRESSION;
    }
    return summary.left() > 0 ? Main.SPOOLED : Main.OK;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? "?" : value.asString();
  }
}
