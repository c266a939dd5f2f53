package org.perftrack.server.ingest;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.perftrack.server.background.BackgroundThread;
import org.perftrack.server.detection.DetectionProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Judges the sessions whose runs stopped arriving before all of them were stored: once no run of a session arrived
 * for {@code perftrack.detection.batch-settle}, its stored runs are judged together as if they were all it sent; so
 * are a session's runs that waited {@code perftrack.detection.batch-max-age}, whatever still arrives. Sessions are
 * taken round-robin between the tokens that opened them.
 * It also picks up, after a restart, the sessions a stopped server left waiting.
 */
@Component
class SessionSettler extends BackgroundThread {

  private static final Logger log = LoggerFactory.getLogger(SessionSettler.class);

  private final Sessions sessions;
  private final TransactionTemplate tx;
  private final Duration settle;
  private final Duration maxAge;

  SessionSettler(Sessions sessions, TransactionTemplate tx, DetectionProperties properties) {
    super("perftrack-sessions", Thread.NORM_PRIORITY);
    this.sessions = sessions;
    this.tx = tx;
    this.settle = properties.batchSettle();
    this.maxAge = properties.batchMaxAge();
  }

  /** Judges every session settled now; returns how many were judged. */
  int judgeSettled() {
    int judged = 0;
    while (true) {
      List<Sessions.Waiting> due = sessions.settled(settle, maxAge);
      if (due.isEmpty()) {
        return judged;
      }
      int before = judged;
      for (Sessions.Waiting w : due) {
        try {
          boolean done = Boolean.TRUE.equals(tx.execute(s -> {
            sessions.lock(w.batch());
            if (!sessions.stillSettled(w, settle, maxAge)) { // a run of it arrived meanwhile, or an upload judged it
              return false;
            }
            sessions.judgeAndSummarise(sessions.judge(w.batch(), w.productId(), w.machineId(), null));
            return true;
          }));
          judged += done ? 1 : 0;
        } catch (RuntimeException e) { // the others are judged all the same; this one stays waiting
          log.warn("judging session {} failed; the next look tries again", w.batch(), e);
        }
      }
      if (judged == before) { // none judged (taken up meanwhile, or failed): the next look tries again
        return judged;
      }
    }
  }

  @Override
  protected void started(ScheduledExecutorService executor) {
    long every = Math.max(100, Math.min(2000, settle.toMillis() / 4));
    executor.scheduleWithFixedDelay(() -> {
      try {
        int n = judgeSettled();
        if (n > 0) {
          log.debug("judged {} sessions whose runs stopped arriving", n);
        }
      } catch (RuntimeException e) {
        log.warn("judging the sessions that stopped arriving failed; the next look tries again", e);
      }
    }, 0, every, TimeUnit.MILLISECONDS);
  }
}
