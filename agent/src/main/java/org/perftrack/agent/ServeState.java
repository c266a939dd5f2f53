package org.perftrack.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.perftrack.agent.shell.ShellRunner;

/**
 * What {@code serve}'s main loop, its heartbeat thread, its stop hook and the running {@link LabJob} share: the
 * agent's id, the versions it offers, the job's last progress line, the benchmark runner to cancel, and the stop.
 */
final class ServeState {

  final AtomicReference<String> progress = new AtomicReference<String>();
  final AtomicReference<List<String>> offered = new AtomicReference<List<String>>(new ArrayList<String>());
  final AtomicReference<ShellRunner> current = new AtomicReference<ShellRunner>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  volatile long agentId = -1;

  boolean stopping() {
    return stop.getCount() == 0;
  }

  /** Waits {@code seconds}, or less when a stop comes. */
  void pause(long seconds) {
    await(stop, seconds);
  }

  /** Ctrl-C or a service stop: ends the running benchmark and waits (30 s at most) for the loop to say it ended. */
  Thread stopHook() {
    return new Thread(new Runnable() {
      @Override
      public void run() {
        stop.countDown();
        ShellRunner r = current.get();
        if (r != null) {
          r.cancel();
        }
        await(stopped, 30);
      }
    }, "perftrack-stop");
  }

  /** The main loop ended: a stop hook waiting for it returns. */
  void ended() {
    stopped.countDown();
  }

  private static void await(CountDownLatch latch, long seconds) {
    try {
      latch.await(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
