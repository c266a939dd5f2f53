package org.perftrack.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.Pass;
import org.perftrack.agent.upload.Retry;
import org.perftrack.agent.upload.Spool;
import org.perftrack.agent.upload.SpoolSender;
import org.perftrack.agent.upload.Stored;
import org.perftrack.agent.upload.Uploader;

/** Sends the spool and turns what happened into the exit code documented in {@code --help}. */
final class Delivery {

  /** Under the REGRESSION, CONFIRMED and WAITING lines: their values are not the medians of a run's table. */
  static final String VALUES_SAID = "(values above: trimmed means, the level the server compares per version; a run's"
      + " own table shows medians)";

  private Delivery() {}

  /** Sends what waits in the spool for {@code server}, to it. */
  static int sendSpool(Spool spool, String server, String token, Retry retry, FailOn failOn,
      PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    return send(sender(spool, server, token, retry, out, err), failOn, out, Collections.<Path>emptyList());
  }

  /** A sender of the spool to {@code server}, its errors on {@code err}. */
  static SpoolSender sender(Spool spool, String server, String token, Retry retry, PrintWriter out, PrintWriter err) {
    return new SpoolSender(spool, new Uploader(server, token, retry), out).errorsTo(err);
  }

  /**
   * @param unkeptIfRefused entries spooled from files the user still has: when the token or the URL is refused
   *     they leave the spool, so that sending the files again with a good token does not send them twice
   */
  static int send(SpoolSender sender, FailOn failOn, PrintWriter out, Collection<Path> unkeptIfRefused)
      throws IOException, InterruptedException {
    Pass summary = sender.leaveIfRefused(unkeptIfRefused).sendAll();
    if (summary.refused()) {
      unkeep(unkeptIfRefused, out);
    }
    List<JsonNode> all = new ArrayList<>(summary.regressions());
    all.addAll(summary.confirmed());
    all.addAll(summary.waiting());
    boolean products = RegressionLines.severalProducts(all);
    for (JsonNode r : summary.regressions()) {
      out.println(RegressionLines.line("REGRESSION", r, products)
          + (r.path("confirmed").asBoolean(true) ? "" : " (unconfirmed: waiting for the next build)")
          + RegressionLines.profile(r));
    }
    for (JsonNode r : summary.confirmed()) {
      out.println(RegressionLines.line("CONFIRMED", r, products) + RegressionLines.profile(r));
    }
    int inconclusive = 0;
    for (JsonNode w : summary.waiting()) {
      boolean branch = w.path(Stored.INCONCLUSIVE).asBoolean(false);
      inconclusive += branch ? 1 : 0;
      out.println(RegressionLines.line(branch ? "INCONCLUSIVE" : "WAITING", w, products) + ": "
          + w.path("note").asText(branch ? "inconclusive" : "waiting for one more build"));
    }
    if (!all.isEmpty()) { // a run's table (ResultTable) shows medians: say which statistic these lines quote
      out.println(VALUES_SAID);
    }
    int waiting = summary.waiting().size() - inconclusive;
    // the WAITING lines' changes are counted apart from the runs waiting in the spool, so that "0 waiting" under
    // them does not read as if they were gone
    out.printf("%s uploaded, %d rejected, %d waiting in the spool, %s%s%s%s%s%n", Words.count(summary.stored(), "run"),
        summary.rejected(), summary.left(), Words.count(summary.regressions().size(), "regression"),
        summary.confirmed().isEmpty() ? "" : ", " + summary.confirmed().size() + " confirmed",
        waiting == 0 ? "" : ", " + Words.count(waiting, "change") + " waiting for one more build",
        inconclusive == 0 ? "" : ", " + Words.count(inconclusive, "inconclusive change")
            + " (a branch build: not failing the check)",
        summary.reattributions() == 0 ? "" : "; " + Words.count(summary.reattributions(), "run")
            + " moved regressions found before to an earlier version (a re-attribution: see SUMMARY above)");
    int code = exitCode(summary, failOn);
    if (code == ExitCode.REGRESSION) { // the closing line says why the build fails
      out.printf("exit 3: %s%n", failOn.why(summary));
    }
    out.flush();
    return code;
  }

  private static int exitCode(Pass summary, FailOn failOn) {
    if (summary.rejected() > 0 || summary.refused()) {
      return ExitCode.ERROR;
    }
    if (failOn.fails(summary)) {
      return ExitCode.REGRESSION;
    }
    return summary.left() > 0 ? ExitCode.SPOOLED : ExitCode.OK;
  }

  private static void unkeep(Collection<Path> entries, PrintWriter out) throws IOException {
    int removed = 0;
    for (Path entry : entries) {
      if (Files.deleteIfExists(entry)) {
        removed++;
      }
    }
    if (removed > 0) {
      out.printf("%s of this upload not kept in the spool: upload %s again once the server takes it%n",
          Words.count(removed, "file"), removed == 1 ? "it" : "them");
    }
  }
}
