package org.perftrack.server.summaries;

import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Rejudging;

/**
 * What one judging raised, handed to the summaries ({@link Summaries#afterJudging}).
 *
 * @param run the upload or session whose runs were judged; {@code null} when series were judged again without one
 *     (stale or curated series, an import's unfinished series): no run id is made up for them
 * @param seriesIds the series judged, whose re-attributed members follow their regression; {@code null}: those of
 *     {@code run}'s results (none without a run)
 * @param announced what is news: announced by the alerts
 * @param quiet history (an import's steps older than their series' newest version): joins its summaries, no mail
 */
public record Raised(UUID run, List<Long> seriesIds, List<Regression> announced, List<Regression> quiet) {

  /** An upload's or session's runs judged. */
  public static Raised byRun(UUID run, Collection<Long> seriesIds, List<Regression> raised) {
    return new Raised(run, List.copyOf(seriesIds), raised, List.of());
  }

  /** Series judged again (stale, or changed by curation): what it raised is announced. */
  public static Raised again(Rejudging.Outcome outcome) {
    return new Raised(null, List.copyOf(outcome.seriesIds()), outcome.raised(), List.of());
  }

  /** Series judged again in the background: history, not news (the digest lists what is open). */
  public static Raised againQuietly(Rejudging.Outcome outcome) {
    return new Raised(null, null, List.of(), outcome.raised());
  }

  /** An import's runs (or, {@code run} null, its unfinished series picked up): only the newest steps are news. */
  public static Raised imported(UUID run, List<Regression> newest, List<Regression> older) {
    return new Raised(run, null, newest, older);
  }
}
