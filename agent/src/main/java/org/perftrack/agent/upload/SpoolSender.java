package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.perftrack.agent.text.Words;

/** Sends every run waiting in the spool, oldest first; stops at the first sign that the server is away. */
public final class SpoolSender {

  /** What a pass over the spool achieved. {@code left} runs are still waiting. */
  public static final class Pass {
    private final int stored;
    private final int rejected;
    private final int left;
    private final boolean refused;
    private final List<JsonNode> regressions;
    private final int reattributions;
    private final List<JsonNode> confirmed;
    private final List<JsonNode> waiting;

    /** @param reattributions stored runs that opened no regression but moved known ones to their version */
    public Pass(int stored, int rejected, int left, boolean refused, List<JsonNode> regressions, int reattributions) {
      this(stored, rejected, left, refused, regressions, reattributions, new ArrayList<JsonNode>());
    }

    /** @param confirmed regressions reported unconfirmed by an earlier upload that these uploads confirmed */
    public Pass(int stored, int rejected, int left, boolean refused, List<JsonNode> regressions, int reattributions,
        List<JsonNode> confirmed) {
      this(stored, rejected, left, refused, regressions, reattributions, confirmed, new ArrayList<JsonNode>());
    }

    /** @param waiting changes at the uploaded versions that wait for one more build before they are reported */
    public Pass(int stored, int rejected, int left, boolean refused, List<JsonNode> regressions, int reattributions,
        List<JsonNode> confirmed, List<JsonNode> waiting) {
      this.waiting = waiting;
      this.stored = stored;
      this.rejected = rejected;
      this.left = left;
      this.refused = refused;
      this.regressions = regressions;
      this.reattributions = reattributions;
      this.confirmed = confirmed;
    }

    public List<JsonNode> confirmed() {
      return confirmed;
    }

    public List<JsonNode> waiting() {
      return waiting;
    }

    public int reattributions() {
      return reattributions;
    }

    public int stored() {
      return stored;
    }

    public int rejected() {
      return rejected;
    }

    public int left() {
      return left;
    }

    public boolean refused() {
      return refused;
    }

    public List<JsonNode> regressions() {
      return regressions;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Pass)) {
        return false;
      }
      Pass o = (Pass) other;
      return stored == o.stored && rejected == o.rejected && left == o.left && refused == o.refused
          && Objects.equals(regressions, o.regressions) && reattributions == o.reattributions;
    }

    @Override
    public int hashCode() {
      return Objects.hash(stored, rejected, left, refused, regressions, reattributions, confirmed, waiting);
    }

    @Override
    public String toString() {
      return "Pass[stored=" + stored + ", rejected=" + rejected + ", left=" + left + ", refused=" + refused
          + ", regressions=" + regressions + ", reattributions=" + reattributions + "]";
    }
  }

  private final Spool spool;
  private final Uploader uploader;
  private final PrintWriter out;

  /**
   * Where the errors go: a rejected run, and those that stop a pass (a refused token, no perftrack server, the
   * server unreachable).
   */
  private PrintWriter err;

  private final java.util.Set<Path> leaveIfRefused = new java.util.HashSet<>();

  public SpoolSender(Spool spool, Uploader uploader, PrintWriter out) {
    this.spool = spool;
    this.uploader = uploader;
    this.out = out;
    this.err = out;
  }

  /** The errors that stop a pass go to {@code err}, apart from the progress on {@code out}. */
  public SpoolSender errorsTo(PrintWriter err) {
    this.err = err;
    return this;
  }

  /**
   * @param leaveIfRefused entries that leave the spool when the token or the URL is refused (the caller removes
   *     them): not counted among the runs left in it
   */
  public SpoolSender(Spool spool, Uploader uploader, PrintWriter out, java.util.Collection<Path> leaveIfRefused) {
    this(spool, uploader, out);
    for (Path p : leaveIfRefused) {
      this.leaveIfRefused.add(p.toAbsolutePath().normalize());
    }
  }

  /** The runs from the i-th pending one on that stay in the spool when the pass stops there refused. */
  private int leftWhenRefused(List<Path> pending, int i) {
    int left = 0;
    for (Path p : pending.subList(i, pending.size())) {
      left += leaveIfRefused.contains(p.toAbsolutePath().normalize()) ? 0 : 1;
    }
    return left;
  }

  public Pass sendAll() throws IOException, InterruptedException {
    List<Path> pending = spool.pending();
    List<JsonNode> regressions = new ArrayList<>();
    List<JsonNode> confirmed = new ArrayList<>();
    List<JsonNode> waiting = new ArrayList<>();
    int stored = 0;
    int rejected = 0;
    int reattributions = 0;
    java.util.Set<String> sessions = new java.util.LinkedHashSet<>();
    for (int i = 0; i < pending.size(); i++) {
      Path file = pending.get(i);
      Spool.Request request = spool.request(file);
      Uploader.Outcome outcome = uploader.send(request);
      if (outcome instanceof Uploader.Stored) {
        Uploader.Stored s = (Uploader.Stored) outcome;
        spool.sent(file);
        stored++;
        regressions.addAll(s.regressions());
        confirmed.addAll(s.confirmed());
        waiting.addAll(s.waiting());
        String session = s.waitsForSession();
        if (session != null) {
          sessions.add(session);
        } else if (s.judgedSession() != null) {
          sessions.remove(s.judgedSession());
        }
        out.printf("uploaded %s (HTTP %d%s%s)%n", file.getFileName(), s.status(),
            s.status() == 200 ? ", the server already had it" : "",
            session != null ? ", judged with its session once the session's other runs are stored" : "");
        // a new run that changed summaries without a regression of its own moved known ones: a re-attribution
        boolean moved = s.status() == 201 && s.regressions().isEmpty() && !s.summaries().isEmpty();
        reattributions += moved ? 1 : 0;
        for (int k = 0; k < s.summaries().size(); k++) {
          // the summary's own version: the answer that completes a session speaks for the session's other runs too
          String version = s.summaryVersion(k) != null ? s.summaryVersion(k) : request.version();
          out.printf("SUMMARY %s%s%n", s.summaries().get(k), moved ? " (no new regression: regressions found before "
              + "at a later version now belong to" + (version == null ? " an earlier one" : " version " + version)
              + ", the first to show them: a re-attribution)" : "");
        }
      } else if (outcome instanceof Uploader.Rejected) {
        Uploader.Rejected r = (Uploader.Rejected) outcome;
        Path kept = spool.reject(file, r.status(), r.problem());
        rejected++;
        out.flush();
        err.printf("the server rejected %s (HTTP %d): %s; kept in %s%n",
            file.getFileName(), r.status(), Uploader.detail(r.problem()), kept.getParent());
        err.flush();
      } else if (outcome instanceof Uploader.Refused) {
        Uploader.Refused r = (Uploader.Refused) outcome;
        int left = leftWhenRefused(pending, i);
        out.flush();
        err.printf("the server refused the token (HTTP %d): %s; %s left in %s%n",
            r.status(), Uploader.detail(r.problem()), Words.count(left, "run"), spool.dir());
        err.flush();
        return new Pass(stored, rejected, left, true, regressions, reattributions, confirmed, waiting);
      } else if (outcome instanceof Uploader.NotPerftrack) {
        Uploader.NotPerftrack n = (Uploader.NotPerftrack) outcome;
        out.flush();
        err.printf("no perftrack server at this URL: POST %s answered HTTP %d, not perftrack's API; give the "
            + "server's own address (e.g. http://host:8080); %s left in %s%n", uploader.endpoint(), n.status(),
            Words.count(leftWhenRefused(pending, i), "run"), spool.dir());
        err.flush();
        return new Pass(stored, rejected, leftWhenRefused(pending, i), true, regressions, reattributions, confirmed,
            waiting);
      } else if (outcome instanceof Uploader.Unreachable) {
        Uploader.Unreachable u = (Uploader.Unreachable) outcome;
        out.flush();
        err.printf("server unreachable (%s); %s left in %s: send %s later with "
            + "'perftrack-agent upload' or the next 'run'%n", u.reason(), Words.count(pending.size() - i, "run"),
            spool.dir(), pending.size() - i == 1 ? "it" : "them");
        err.flush();
        return new Pass(stored, rejected, pending.size() - i, false, regressions, reattributions, confirmed,
            waiting);
      }
    }
    if (!sessions.isEmpty()) {
      out.printf("%s %s for runs not uploaded: the server judges the runs it has once no more arrive for a while "
          + "(perftrack.detection.batch-settle); the regressions show on its pages, not here%n",
          Words.count(sessions.size(), "session"), sessions.size() == 1 ? "waits" : "wait");
    }
    out.flush();
    return new Pass(stored, rejected, 0, false, regressions, reattributions, confirmed, waiting);
  }
}
