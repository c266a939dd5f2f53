package org.perftrack.agent.upload;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Sends the runs waiting in one server's part of the spool, oldest first; stops at the first sign that the server
 * is away. Any number of agent processes may send one spool at once: each entry is claimed ({@link Claim}) while it
 * is sent, an entry another process holds is theirs to send (and the rest of its session with it, so that a
 * session still goes in version order), and a command waits for its own entries that another process holds, then
 * asks the server for their answer (a run the server has is answered 200, with what it found).
 */
public final class SpoolSender {

  /** How long a command waits for another agent process that sends one of its own entries. */
  static final long OWN_WAIT_MILLIS = TimeUnit.MINUTES.toMillis(30);
  private static final long POLL_MILLIS = 100;

  private final Spool spool;
  private final Uploader uploader;
  private final PrintWriter out;
  private PrintWriter err;
  private final Set<Path> leaveIfRefused = new HashSet<>();
  private final Set<Path> own = new HashSet<>();
  private Set<Path> only;

  // the pass under way
  private Pass pass;
  private PassReport report;
  private final Set<String> sessions = new LinkedHashSet<>();

  public SpoolSender(Spool spool, Uploader uploader, PrintWriter out) {
    this.spool = spool;
    this.uploader = uploader;
    this.out = out;
    this.err = out;
  }

  /**
   * The errors (a rejected run, and those that stop a pass: a refused token, no perftrack server, the server
   * unreachable) go to {@code err}, apart from the progress on {@code out}.
   */
  public SpoolSender errorsTo(PrintWriter err) {
    this.err = err;
    return this;
  }

  /**
   * Entries that leave the spool when the token or the URL is refused (the caller removes them): not counted among
   * the runs left in it.
   */
  public SpoolSender leaveIfRefused(Collection<Path> entries) {
    entries.forEach(p -> leaveIfRefused.add(key(p)));
    return this;
  }

  /** This command's own entries: their answers count (regressions, the exit code), so they are waited for. */
  public SpoolSender own(Collection<Path> entries) {
    entries.forEach(p -> own.add(key(p)));
    return this;
  }

  /** Sends these entries only ({@code spool send ID…}). */
  public SpoolSender only(Collection<Path> entries) {
    only = new HashSet<>();
    entries.forEach(p -> only.add(key(p)));
    return this;
  }

  /** Sends this server's waiting entries (or those of {@link #only}); one pass, for one call. */
  public Pass sendAll() throws IOException, InterruptedException {
    Spools whole = new Spools(spool.root());
    whole.removeOld(spool.keepSentDays());
    report = new PassReport(out, err);
    pass = new Pass();
    sessions.clear();
    List<SpoolEntry> pending = new ArrayList<>();
    for (SpoolEntry e : spool.entries()) {
      if (only == null || only.contains(key(e.file()))) {
        pending.add(e);
      }
    }
    Set<String> busy = new HashSet<>();
    List<Path> awaited = new ArrayList<>();
    for (int i = 0; i < pending.size(); i++) {
      SpoolEntry entry = pending.get(i);
      Outcome outcome = busy.contains(entry.batch()) ? null : sendIfFree(entry.file());
      if (outcome == null) {
        taken(entry, busy, awaited);
      } else if (stops(outcome)) {
        List<Path> rest = new ArrayList<>();
        pending.subList(i, pending.size()).forEach(e -> rest.add(e.file()));
        rest.addAll(awaited);
        return stop(outcome, rest);
      }
    }
    for (int i = 0; i < awaited.size(); i++) {
      Outcome outcome = deliverAwaited(awaited.get(i));
      if (stops(outcome)) {
        return stop(outcome, awaited.subList(i, awaited.size()));
      }
    }
    report.taken(pass.taken());
    report.sessionsWaiting(sessions.size());
    report.others(spool.server() == null ? null : whole.others(spool.server()));
    return pass.stopped(0, false);
  }

  /** Sends an entry no other process holds; null when another does (or has sent it meanwhile). */
  private Outcome sendIfFree(Path file) throws IOException, InterruptedException {
    try (Claim claim = spool.claim(file)) {
      return claim == null ? null : deliver(claim.request(), file, claim);
    }
  }

  /** An entry another process holds: its session is that process's to send; an own entry is waited for. */
  private void taken(SpoolEntry entry, Set<String> busy, List<Path> awaited) {
    if (entry.batch() != null) {
      busy.add(entry.batch()); // the rest of the session goes from the other process, in version order
    }
    if (own.contains(key(entry.file()))) {
      awaited.add(entry.file());
    } else if (Files.exists(entry.file())) {
      pass.addTaken();
    }
  }

  /**
   * An own entry another process held: claimed once that process lets it go, or, when that process has sent or
   * rejected it, its copy there sent again for the server's answer (without moving it).
   */
  private Outcome deliverAwaited(Path file) throws IOException, InterruptedException {
    long until = System.currentTimeMillis() + OWN_WAIT_MILLIS;
    report.awaiting(file);
    while (Files.exists(file) && System.currentTimeMillis() < until) {
      Outcome outcome = sendIfFree(file);
      if (outcome != null) {
        return outcome;
      }
      Thread.sleep(POLL_MILLIS);
    }
    if (Files.exists(file)) {
      return new Outcome.Unreachable("another agent process held " + file.getFileName() + " for "
          + TimeUnit.MILLISECONDS.toMinutes(OWN_WAIT_MILLIS) + " minutes");
    }
    for (Path done : new Path[] {spool.sentFolder().resolve(file.getFileName()),
        spool.dir().resolve("rejected").resolve(file.getFileName())}) {
      if (Files.exists(done)) {
        return deliver(spool.request(done), done, null);
      }
    }
    return null; // dropped meanwhile
  }

  /** Sends one entry and records its outcome; a claimed entry moves to sent/ or rejected/ as the server said. */
  private Outcome deliver(Request request, Path file, Claim claim) throws IOException, InterruptedException {
    Outcome outcome = uploader.send(request);
    if (outcome instanceof Stored) {
      Stored s = (Stored) outcome;
      if (claim != null) {
        claim.sent();
      }
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
      report.rejected(file, r, claim != null ? claim.reject(r.status(), r.problem()) : file);
    }
    return outcome;
  }

  private static boolean stops(Outcome outcome) {
    return outcome instanceof Outcome.Refused || outcome instanceof Outcome.NotPerftrack
        || outcome instanceof Outcome.Unreachable;
  }

  private Pass stop(Outcome outcome, List<Path> rest) {
    if (outcome instanceof Outcome.Unreachable) {
      report.unreachable((Outcome.Unreachable) outcome, rest.size(), spool.dir());
      return pass.stopped(rest.size(), false);
    }
    int left = 0;
    for (Path p : rest) {
      left += leaveIfRefused.contains(key(p)) ? 0 : 1;
    }
    if (outcome instanceof Outcome.Refused) {
      report.refused((Outcome.Refused) outcome, left, spool.dir());
    } else {
      report.notPerftrack((Outcome.NotPerftrack) outcome, uploader.endpoint(), left, spool.dir());
    }
    return pass.stopped(left, true);
  }

  private static Path key(Path p) {
    return p.toAbsolutePath().normalize();
  }
}
