package org.perftrack.server.alerts;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.stereotype.Component;

/**
 * Delivers the outbox, mail and webhooks: one thread per server that wakes after each commit that queued mail (so a mail
 * leaves about 0.1 s after its commit) and otherwise every {@code poll-interval} (for retries, for rows another
 * server queued, and for the daily digest). Failures wait with exponential backoff.
 */
@Component
class OutboxSender implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(OutboxSender.class);

  private final AlertsProperties props;
  private final Outbox outbox;
  private final Delivery delivery;
  private final ObjectProvider<JavaMailSender> mailSender;
  private final DigestService digests;
  private final WebhookDelivery webhooks;
  private final Semaphore wake = new Semaphore(0);
  /** Names this server in {@code locked_by}: two servers, or two contexts in one JVM, never share it. */
  private final String owner =
      hostName() + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
  private volatile boolean running;
  private long lastPrune;
  private Thread thread;

  OutboxSender(AlertsProperties props, Outbox outbox, Delivery delivery, ObjectProvider<JavaMailSender> mailSender,
      DigestService digests, WebhookDelivery webhooks) {
    this.props = props;
    this.outbox = outbox;
    this.delivery = delivery;
    this.mailSender = mailSender;
    this.digests = digests;
    this.webhooks = webhooks;
  }

  void wake() {
    wake.release();
  }

  String owner() {
    return owner;
  }

  boolean smtpConfigured() {
    return mailSender.getIfAvailable() != null;
  }

  @Override
  public void start() {
    if (!props.enabled()) {
      return;
    }
    running = true;
    thread = new Thread(this::loop, "perftrack-alerts-sender");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void stop() {
    running = false;
    if (thread != null) {
      wake();
      try {
        thread.join(TimeUnit.SECONDS.toMillis(15));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      releaseOwnClaims();
    }
  }

  /**
   * Below the web server's graceful shutdown: in-flight uploads finish (and queue their mail) before
   * the sender stops, and the sender stops before the database does.
   */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE - 4096;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private void loop() {
    while (running) {
      try {
        digests.makeIfDue();
        drain();
        pruneHourly();
      } catch (RuntimeException e) {
        // the database may be briefly away; the next pass tries again
        log.warn("alerts: sender pass failed: {}", e.toString());
      }
      try {
        wake.tryAcquire(props.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
        wake.drainPermits();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void pruneHourly() {
    long now = System.nanoTime();
    if (lastPrune == 0 || now - lastPrune > TimeUnit.HOURS.toNanos(1)) {
      lastPrune = now;
      int n = outbox.pruneSent(props.keepSent());
      if (n > 0) {
        log.info("alerts: removed {} mails sent more than {} ago from the outbox", n, props.keepSent());
      }
    }
  }

  /** Sends claimed batches of mail (when SMTP is configured) and of webhook deliveries until nothing is due. */
  void drain() {
    JavaMailSender smtp = mailSender.getIfAvailable();
    List<Outbox.Claimed> batch;
    if (smtp != null) {
      do {
        batch = outbox.claim(owner, props.lease(), props.batchSize(), false);
        delivery.send(smtp, batch, owner);
      } while (running && batch.size() == props.batchSize());
    }
    do {
      batch = outbox.claim(owner, props.lease(), props.batchSize(), true);
      webhooks.send(batch, owner);
    } while (running && batch.size() == props.batchSize());
  }

  /** On shutdown, mails claimed but not yet handed to SMTP go back to the queue at once. */
  private void releaseOwnClaims() {
    try {
      outbox.releaseAll(owner);
    } catch (RuntimeException e) {
      log.debug("alerts: could not release claims on shutdown (their lease will run out): {}", e.toString());
    }
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }
}
