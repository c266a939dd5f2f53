package org.perftrack.server.background;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.springframework.context.SmartLifecycle;

/**
 * One daemon thread of a server's own work (the lab's clock, curation's purge, chart summaries), started and
 * stopped with the application: {@link #started} gets the thread's executor to schedule on; stopping interrupts
 * what runs.
 */
public abstract class BackgroundThread implements SmartLifecycle {

  private final String name;
  private final int priority;
  private volatile ScheduledExecutorService executor;

  /** @param name the thread's name, as thread dumps and logs show it */
  protected BackgroundThread(String name, int priority) {
    this.name = name;
    this.priority = priority;
  }

  /** Schedules the work on the thread, right after it is made. */
  protected abstract void started(ScheduledExecutorService executor);

  /** The running thread's executor, or null before start and after stop. */
  protected ScheduledExecutorService executor() {
    return executor;
  }

  @Override
  public void start() {
    ScheduledExecutorService e = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      t.setPriority(priority);
      return t;
    });
    executor = e;
    started(e);
  }

  @Override
  public void stop() {
    ScheduledExecutorService e = executor;
    executor = null;
    if (e != null) {
      e.shutdownNow();
    }
  }

  @Override
  public boolean isRunning() {
    return executor != null;
  }
}
