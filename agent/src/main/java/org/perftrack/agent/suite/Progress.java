package org.perftrack.agent.suite;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/** One console line per step: benchmark k of n, target, what ran, and an estimate of the time left. */
final class Progress {

  private final PrintWriter out;
  private final int totalSteps;
  private final long startNanos = System.nanoTime();
  private int doneSteps;

  Progress(PrintWriter out, int totalSteps) {
    this.out = out;
    this.totalSteps = Math.max(1, totalSteps);
  }

  void step(int k, int n, Benchmark benchmark, String target, String what) {
    doneSteps++;
    long elapsed = System.nanoTime() - startNanos;
    Duration left = Duration.ofNanos(elapsed / doneSteps * Math.max(0, totalSteps - doneSteps));
    out.printf(Locale.ROOT, "[%2d/%d] %-15s %-16s %-22s ~%s left%n",
        k, n, benchmark.name(), target, what, format(left));
    out.flush();
  }

  void note(String message) {
    out.println(message);
    out.flush();
  }

  static String format(Duration d) {
    long s = d.getSeconds();
    return s >= 60 ? (s / 60) + "m" + String.format(Locale.ROOT, "%02d", s % 60) + "s" : s + "s";
  }
}
