package org.perftrack.server.versions;

import java.util.Comparator;
import org.perftrack.wire.VersionKey;

/** Orders version names by meaning (see {@link VersionKey}); consistent with the database's ORDER BY sort_key. */
public final class VersionOrder implements Comparator<String> {

  public static final VersionOrder INSTANCE = new VersionOrder();

  private VersionOrder() {}

  @Override
  public int compare(String a, String b) {
    return VersionKey.of(a).compareTo(VersionKey.of(b));
  }
}
