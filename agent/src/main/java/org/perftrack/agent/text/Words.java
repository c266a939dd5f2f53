package org.perftrack.agent.text;

import org.perftrack.wire.Quantities;

/**
 * Counts with their noun in the right number, as the server's pages word them ("1 run", "2 runs", "12,000 runs":
 * digits grouped from 10,000 as every number the agent prints).
 */
public final class Words {

  private Words() {}

  public static String count(long n, String singular) {
    return Quantities.count(n) + " " + (n == 1 ? singular : singular + "s");
  }
}
