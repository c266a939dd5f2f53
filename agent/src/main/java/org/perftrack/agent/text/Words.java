package org.perftrack.agent.text;

/** Counts with their noun in the right number, as the server's pages word them ("1 run", "2 runs"). */
public final class Words {

  private Words() {}

  public static String count(long n, String singular) {
    return n + " " + (n == 1 ? singular : singular + "s");
  }
}
