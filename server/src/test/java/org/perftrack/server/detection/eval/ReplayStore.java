package org.perftrack.server.detection.eval;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.perftrack.server.detection.Decision;
import org.perftrack.server.detection.RecordedRegression;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Step;

/** The stored regressions of one series in memory, as the server's store applies the reconciler's decisions. */
final class ReplayStore {
  private final Map<Long, RecordedRegression> records = new HashMap<>();
  private final long[] ids;

  /** {@code ids}: a counter shared by the stores of one replay, so that ids are unique across series. */
  ReplayStore(long[] ids) {
    this.ids = ids;
  }

  List<RecordedRegression> all() {
    return List.copyOf(records.values());
  }

  RecordedRegression get(long id) {
    return records.get(id);
  }

  /** Applies one decision; returns the id of the record it created (or changed). */
  long apply(Decision d) {
    switch (d.action()) {
      case CREATE -> {
        long id = ids[0]++;
        records.put(id, record(id, d.step(), Regression.Status.OPEN, d.step().confirmed()));
        return id;
      }
      case CONFIRM, REATTRIBUTE -> {
        RecordedRegression r = records.get(d.regressionId());
        records.put(r.id(), record(r.id(), d.step(), r.status(), r.confirmed() || d.step().confirmed()));
      }
      case REOPEN -> {
        RecordedRegression r = records.get(d.regressionId());
        records.put(r.id(), record(r.id(), d.step(), Regression.Status.OPEN, r.confirmed() || d.step().confirmed()));
      }
      case WITHDRAW -> {
        RecordedRegression r = records.get(d.regressionId());
        records.put(r.id(), new RecordedRegression(r.id(), r.baselineVersion(), r.version(), r.baselineValue(),
            r.value(), r.kind(), Regression.Status.WITHDRAWN, r.confirmed(), r.firstSuspect(), r.lastSuspect()));
      }
    }
    return d.regressionId();
  }

  private static RecordedRegression record(long id, Step s, Regression.Status status, boolean confirmed) {
    return new RecordedRegression(id, s.baselineVersion(), s.version(), s.baselineValue(), s.value(), s.kind(),
        status, confirmed, s.firstSuspect(), s.lastSuspect());
  }
}
