package org.perftrack.server.curation;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.perftrack.server.background.BackgroundThread;
import org.perftrack.server.detection.Rejudging;
import org.perftrack.server.summaries.Raised;
import org.perftrack.server.summaries.Summaries;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * At start-up, judges whatever a crash left due (an import stored but not judged); then, every
 * {@code perftrack.curation.purge-every}, purges the deletions past their keep time.
 */
@Component
class CurationTicker extends BackgroundThread {

  private static final Logger log = LoggerFactory.getLogger(CurationTicker.class);
  /** Pairs judged per transaction at start-up. */
  static final int DUE_PER_TRANSACTION = 2000;

  private final Rejudging rejudging;
  private final Summaries summaries;
  private final Purge purge;
  private final CurationProperties props;
  private final TransactionTemplate tx;

  CurationTicker(Rejudging rejudging, Summaries summaries, Purge purge, CurationProperties props,
      TransactionTemplate tx) {
    super("perftrack-curation", Thread.NORM_PRIORITY);
    this.rejudging = rejudging;
    this.summaries = summaries;
    this.purge = purge;
    this.props = props;
    this.tx = tx;
  }

  /** Judges every pair left due; returns how many series were judged. */
  int judgeLeftDue() {
    int series = 0;
    while (true) {
      Rejudging.Outcome o = tx.execute(s -> {
        Rejudging.Outcome judged = rejudging.pickUpOldest(DUE_PER_TRANSACTION);
        summaries.afterJudging(Raised.againQuietly(judged)); // history, not news: no mail (the digest lists it)
        return judged;
      });
      if (o.seriesIds().isEmpty()) {
        return series;
      }
      series += o.seriesIds().size();
    }
  }

  void tick() {
    try {
      int n = purge.expired();
      if (n > 0) {
        log.info("purged {} deletions past their keep time", n);
      }
    } catch (RuntimeException e) {
      log.warn("purging deleted data failed; the next tick tries again", e);
    }
  }

  @Override
  protected void started(ScheduledExecutorService executor) {
    executor.execute(() -> {
      try {
        int judged = judgeLeftDue();
        if (judged > 0) {
          log.info("judged {} series whose stored data a crash had left unjudged", judged);
        }
      } catch (RuntimeException e) {
        log.error("judging the data left unjudged failed; the next upload or import of its series tries again", e);
      }
    });
    long millis = props.purgeEvery().toMillis();
    executor.scheduleWithFixedDelay(this::tick, millis, millis, TimeUnit.MILLISECONDS);
  }
}
