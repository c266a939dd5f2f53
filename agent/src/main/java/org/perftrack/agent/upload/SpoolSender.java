package org.perftrack.agent.upload;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Sends every run waiting in the spool, oldest first; stops at the first sign that the server is away. */
public final class SpoolSender {

  /** What a pass over the spool achieved. {@code left} runs are still waiting. */
  public record Summary(int stored, int rejected, int left, boolean refused, List<JsonNode> regressions) {}

  private final Spool spool;
  private final Uploader uploader;
  private final PrintWriter out;

  public SpoolSender(Spool spool, Uploader uploader, PrintWriter out) {
    this.spool = spool;
    this.uploader = uploader;
    this.out = out;
  }

  public Summary sendAll() throws IOException, InterruptedException {
    List<Path> pending = spool.pending();
    List<JsonNode> regressions = new ArrayList<>();
    int stored = 0;
    int rejected = 0;
    for (int i = 0; i < pending.size(); i++) {
      Path file = pending.get(i);
      Uploader.Outcome outcome = uploader.send(Files.readAllBytes(file));
      if (outcome instanceof Uploader.Stored s) {
        spool.sent(file);
        stored++;
        regressions.addAll(s.regressions());
        out.printf("uploaded %s (HTTP %d%s)%n", file.getFileName(), s.status(),
            s.status() == 200 ? ", the server already had it" : "");
      } else if (outcome instanceof Uploader.Rejected r) {
        Path kept = spool.reject(file, r.status(), r.problem());
        rejected++;
        out.printf("the server rejected %s (HTTP %d): %s; kept in %s%n",
            file.getFileName(), r.status(), oneLine(r.problem()), kept.getParent());
      } else if (outcome instanceof Uploader.Refused r) {
        out.printf("the server refused the token (HTTP %d): %s; %d run(s) stay in %s%n",
            r.status(), oneLine(r.problem()), pending.size() - i, spool.dir());
        out.flush();
        return new Summary(stored, rejected, pending.size() - i, true, regressions);
      } else if (outcome instanceof Uploader.Unreachable u) {
        out.printf("server unreachable (%s); %d run(s) stay in %s: send them later with "
            + "'perftrack-agent upload' or the next 'run'%n", u.reason(), pending.size() - i, spool.dir());
        out.flush();
        return new Summary(stored, rejected, pending.size() - i, false, regressions);
      }
    }
    out.flush();
    return new Summary(stored, rejected, 0, false, regressions);
  }

  private static String oneLine(String text) {
    String s = text == null ? "" : text.replaceAll("\\s+", " ").strip();
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }
}
