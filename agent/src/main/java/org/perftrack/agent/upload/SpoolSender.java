package org.perftrack.agent.upload;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Sends every run waiting in the spool, oldest first; stops at the first sign that the server is away. */
public final class SpoolSender {

  private final Spool spool;
  private final Uploader uploader;
  private final PrintWriter out;
  private PrintWriter err;
  private final Set<Path> leaveIfRefused = new HashSet<>();

  public SpoolSender(Spool spool, Uploader uploader, PrintWriter out) {
    this.spool = spool;
    this.uploader = uploader;
    this.out = out;
    this.err = out;
  }

  /**
   * @param leaveIfRefused entries that leave the spool when the token or the URL is refused (the caller removes
   *     them): not counted among the runs left in it
   */
  public SpoolSender(Spool spool, Uploader uploader, PrintWriter out, Collection<Path> leaveIfRefused) {
    this(spool, uploader, out);
    for (Path p : leaveIfRefused) {
      this.leaveIfRefused.add(p.toAbsolutePath().normalize());
    }
  }

  /**
   * The errors (a rejected run, and those that stop a pass: a refused token, no perftrack server, the server
   * unreachable) go to {@code err}, apart from the progress on {@code out}.
   */
  public SpoolSender errorsTo(PrintWriter err) {
    this.err = err;
    return this;
  }

  public Pass sendAll() throws IOException, InterruptedException {
    PassReport report = new PassReport(out, err);
    List<Path> pending = spool.pending();
    Pass pass = new Pass();
    Set<String> sessions = new LinkedHashSet<>();
    for (int i = 0; i < pending.size(); i++) {
      Path file = pending.get(i);
      Spool.Request request = spool.request(file);
      Outcome outcome = uploader.send(request);
      if (outcome instanceof Stored) {
        Stored s = (Stored) outcome;
        spool.sent(file);
        String session = s.waitsForSession();
        if (session != null) {
          sessions.add(session);
        } else if (s.judgedSession() != null) {
          sessions.remove(s.judgedSession());
        }
        // a new run that changed summaries without a regression of its own moved known ones: a re-attribution
        boolean moved = s.status() == 201 && s.regressions().isEmpty() && !s.summaries().isEmpty();
        pass.stored(s, moved);
        report.stored(file, s, session, moved, request.version());
      } else if (outcome instanceof Outcome.Rejected) {
        Outcome.Rejected r = (Outcome.Rejected) outcome;
        pass.addRejected();
        report.rejected(file, r, spool.reject(file, r.status(), r.problem()));
      } else if (outcome instanceof Outcome.Refused) {
        int left = leftWhenRefused(pending, i);
        report.refused((Outcome.Refused) outcome, left, spool.dir());
        return pass.stopped(left, true);
      } else if (outcome instanceof Outcome.NotPerftrack) {
        int left = leftWhenRefused(pending, i);
        report.notPerftrack((Outcome.NotPerftrack) outcome, uploader.endpoint(), left, spool.dir());
        return pass.stopped(left, true);
      } else if (outcome instanceof Outcome.Unreachable) {
        report.unreachable((Outcome.Unreachable) outcome, pending.size() - i, spool.dir());
        return pass.stopped(pending.size() - i, false);
      }
    }
    report.sessionsWaiting(sessions.size());
    return pass.stopped(0, false);
  }

  /** The runs from the i-th pending one on that stay in the spool when the pass stops there refused. */
  private int leftWhenRefused(List<Path> pending, int i) {
    int left = 0;
    for (Path p : pending.subList(i, pending.size())) {
      left += leaveIfRefused.contains(p.toAbsolutePath().normalize()) ? 0 : 1;
    }
    return left;
  }
}
