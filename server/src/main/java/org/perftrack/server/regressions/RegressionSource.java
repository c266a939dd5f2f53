package org.perftrack.server.regressions;

import java.util.List;
import java.util.Optional;

/** What the pages need of detection: its recorded regressions and their triage. */
public interface RegressionSource {

  /** Newest first; {@code product}/{@code machine} null for any. */
  List<Listed> list(String product, String machine, List<String> statuses, int limit);

  Optional<Listed> find(long id);

  Optional<Listed> triage(long id, String status, String note, String by);
}
