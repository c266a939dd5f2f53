package org.perftrack.server.db;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * How far the replica is behind the primary, measured every {@code lag-check}: the primary's WAL position is noted
 * with the time it was read; the replica is as old as the first noted position it has not replayed yet (zero when
 * it has replayed the newest). Replay timestamps alone would call an idle, caught-up replica hours behind.
 */
public final class ReplicaLag {

  private static final Logger log = LoggerFactory.getLogger(ReplicaLag.class);

  static final String PRIMARY_POSITION = "SELECT pg_current_wal_lsn()::text";
  static final String REPLAYED = """
      SELECT CASE WHEN pg_is_in_recovery() THEN pg_wal_lsn_diff(CAST(? AS pg_lsn), pg_last_wal_replay_lsn()) END""";

  /** A day of notes at the default interval; a replica stuck for longer is shown as a day behind. */
  private static final int MAX_NOTES = 43_200;

  private record Noted(Instant at, String position) {}

  private final JdbcClient primary;
  private final JdbcClient replica;
  private final ReplicaProperties props;
  private final Deque<Noted> notes = new ArrayDeque<>();
  private volatile Duration behind = Duration.ZERO;
  private volatile boolean usable;

  ReplicaLag(DataSource primary, DataSource replica, ReplicaProperties props) {
    this.primary = JdbcClient.create(primary);
    this.replica = JdbcClient.create(replica);
    this.props = props;
  }

  /** Whether reads may go to the replica now: it answers, is a standby, and is not further behind than max-lag. */
  boolean usable() {
    return usable;
  }

  /**
   * How far behind the replica is, when the current request reads from it and it is more than {@code lag-warning}
   * behind: what a page says above its content.
   */
  public Optional<Duration> shownBehind() {
    Duration b = behind;
    return ReplicaReads.marked() && usable && b.compareTo(props.lagWarning()) > 0 ? Optional.of(b) : Optional.empty();
  }

  synchronized void measure() {
    try {
      Instant now = Instant.now();
      notes.addLast(new Noted(now, primary.sql(PRIMARY_POSITION).query(String.class).single()));
      if (notes.size() > MAX_NOTES) {
        notes.removeFirst();
      }
      Duration lag = null;
      while (!notes.isEmpty()) {
        var answer = replica.sql(REPLAYED).param(notes.peekFirst().position()).query(Double.class).list();
        Double missing = answer.isEmpty() ? null : answer.get(0);
        if (missing == null) {
          throw new IllegalStateException("the replica is not a standby (pg_is_in_recovery() is false)");
        }
        if (missing > 0) {
          lag = Duration.between(notes.peekFirst().at(), now);
          break;
        }
        notes.removeFirst(); // replayed: the replica is at least this new
      }
      behind = lag == null ? Duration.ZERO : lag;
      boolean wasUsable = usable;
      usable = behind.compareTo(props.maxLag()) <= 0;
      if (wasUsable != usable) {
        log.warn(usable ? "reads go to the replica again (behind by {})"
            : "the replica is behind by {}: reads go to the primary", behind);
      }
    } catch (RuntimeException e) {
      if (usable) {
        log.warn("the replica cannot be read, reads go to the primary: {}", e.toString());
      }
      usable = false;
      notes.clear();
    }
  }
}
