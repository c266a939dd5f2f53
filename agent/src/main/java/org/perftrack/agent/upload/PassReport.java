package org.perftrack.agent.upload;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.perftrack.agent.text.Words;

/**
 * What a pass over the spool says as it goes: each stored run (its page) with the summaries it changed on {@code out};
 * a rejected run on both, and what stops a pass (a refused token, no perftrack server, the server unreachable), on
 * {@code err}.
 */
final class PassReport {

  private final PrintWriter out;
  private final PrintWriter err;

  PassReport(PrintWriter out, PrintWriter err) {
    this.out = out;
    this.err = err;
  }

  /** @param moved the run opened no regression but moved known ones to its version: a re-attribution */
  void stored(Path file, Stored s, String session, boolean moved, String version) {
    out.printf("uploaded %s (HTTP %d%s%s)%n", s.runUrl() != null ? s.runUrl() : file.getFileName(), s.status(),
        s.status() == 200 ? ", the server already had it" : "",
        session != null ? ", judged with its session once the session's other runs are stored" : "");
    for (int k = 0; k < s.summaries().size(); k++) {
      // the summary's own version: the answer that completes a session speaks for the session's other runs too
      String at = s.summaryVersion(k) != null ? s.summaryVersion(k) : version;
      out.printf("SUMMARY %s%s%n", s.summaries().get(k), moved ? " (no new regression: regressions found before "
          + "at a later version now belong to" + (at == null ? " an earlier one" : " version " + at)
          + ", the first to show them: a re-attribution)" : "");
    }
  }

  /** On {@code out} too, beside the count of rejected runs, so that a CI log of stdout alone says why. */
  void rejected(Path file, Outcome.Rejected r, Path kept) {
    out.printf("REJECTED %s (HTTP %d): %s%n", file.getFileName(), r.status(), Answers.detail(r.problem()));
    error("the server rejected %s (HTTP %d): %s; kept in %s%n", file.getFileName(), r.status(),
        Answers.detail(r.problem()), kept.getParent());
  }

  void refused(Outcome.Refused r, int left, Path spool) {
    error("the server refused the token (HTTP %d): %s; %s left in %s%n", r.status(), Answers.detail(r.problem()),
        Words.count(left, "run"), spool);
  }

  void notPerftrack(Outcome.NotPerftrack n, String endpoint, int left, Path spool) {
    error("no perftrack server at this URL: POST %s answered HTTP %d, not perftrack's API; give the "
        + "server's own address (e.g. http://host:8080); %s left in %s%n", endpoint, n.status(),
        Words.count(left, "run"), spool);
  }

  void unreachable(Outcome.Unreachable u, int left, Path spool) {
    error("server unreachable (%s); %s left in %s: send %s later with "
        + "'perftrack-agent upload' or the next 'run'%n", u.reason(), Words.count(left, "run"), spool,
        left == 1 ? "it" : "them");
  }

  /** An own entry another agent process held: its answer is asked for once that process is done with it. */
  void awaiting(Path file) {
    out.printf("%s: sent by another agent process at the same time; asking the server for its answer%n",
        file.getFileName());
    out.flush();
  }

  void taken(int taken) {
    if (taken > 0) {
      out.printf("%s %s being sent by another agent process at the same time%n", Words.count(taken, "run"),
          taken == 1 ? "was" : "were");
    }
  }

  /** The line that counts the runs waiting for other servers (null: there are none). */
  void others(String line) {
    if (line != null) {
      out.println(line);
    }
    out.flush();
  }

  void sessionsWaiting(int sessions) {
    if (sessions > 0) {
      out.printf("%s %s for runs not uploaded: the server judges the runs it has once no more arrive for a while "
          + "(perftrack.detection.batch-settle); the regressions show on its pages, not here%n",
          Words.count(sessions, "session"), sessions == 1 ? "waits" : "wait");
    }
    out.flush();
  }

  private void error(String format, Object... args) {
    out.flush();
    err.printf(format, args);
    err.flush();
  }
}
