package org.perftrack.server.alerts;

import java.time.Duration;
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
 * Delivers the outbox: one thread per server that wakes after each commit that queued mail (so a mail
 * leaves within milliseconds) and otherwise every {@code poll-interval} (for retries, for rows another
 * server queued, and for the daily digest). Failures wait with exponential backoff.
 */
@Component
class OutboxSender implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(OutboxSender.class);

  private final AlertsProperties props;
  private final Outbox outbox;
  private final MailComposer composer;
  private final ObjectProvider<JavaMailSender> mailSender;
  private final DigestService digests;
  private final Semaphore wake = new Semaphore(0);
  /** Names this server in {@code locked_by}: two servers, or two contexts in one JVM, never share it. */
  private final String owner = hostName() + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
  private volatile boolean running;
  private Thread thread;

  OutboxSender(AlertsProperties props, Outbox outbox, MailComposer composer, ObjectProvider<JavaMailSender> mailSender,
      DigestService digests) {
    this.props = props;
    this.outbox = outbox;
    this.composer = composer;
    this.mailSender = mailSender;
    this.digests = digests;
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
    }
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

  /** Sends claimed batches until nothing is due. */
  void drain() {
    JavaMailSender smtp = mailSender.getIfAvailable();
    if (smtp == null) {
      return;
    }
    List<Outbox.Claimed> batch;
    do {
      batch = outbox.claim(owner, props.lease(), props.batchSize());
      sendBatch(smtp, batch);
    } while (running && batch.size() == props.batchSize());
  }

  private void sendBatch(JavaMailSender smtp, List<Outbox.Claimed> batch) {
    long claimedAt = System.nanoTime();
    Duration halfLease = props.lease().dividedBy(2);
    for (int i = 0; i < batch.size(); i++) {
      Outbox.Claimed row = batch.get(i);
      if (!running || Duration.ofNanos(System.nanoTime() - claimedAt).compareTo(halfLease) > 0) {
        // stopping, or slow enough that the lease could run out mid-send: hand the rest back untried
        outbox.release(batch.subList(i, batch.size()).stream().map(Outbox.Claimed::id).toList(), owner, Duration.ZERO);
        return;
      }
      Exception error = send(smtp, row);
      if (error != null && SmtpErrors.isConnectionProblem(error)) {
        // the server is unreachable: the rest of the batch would fail the same way, so it counts as failed too
        batch.subList(i + 1, batch.size()).forEach(rest -> recordFailure(rest, error));
        return;
      }
    }
  }

  /** Sends one mail and records the outcome; returns the failure, or null when it went out. */
  private Exception send(JavaMailSender smtp, Outbox.Claimed row) {
    try {
      smtp.send(composer.compose(row));
      if (!outbox.sent(row.id(), owner)) {
        log.warn("alerts: mail {} was sent but its lease had passed to another server", row.id());
      }
      return null;
    } catch (Exception e) {
      recordFailure(row, e);
      return e;
    }
  }

  private void recordFailure(Outbox.Claimed row, Exception e) {
    int attempts = row.attempts() + 1;
    boolean giveUp = attempts >= props.maxAttempts();
    String error = SmtpErrors.describe(e);
    outbox.failed(row.id(), owner, error, props.backoffAfter(attempts), giveUp);
    // an SMTP server away for an hour must not flood the log: the first failure and the last say it
    if (attempts == 1 || giveUp) {
      log.warn("alerts: mail {} to {} failed (attempt {}{}): {}", row.id(), row.recipient(), attempts,
          giveUp ? ", giving up; /admin/outbox can retry it" : ", will retry", error);
    } else {
      log.debug("alerts: mail {} failed again (attempt {}): {}", row.id(), attempts, error);
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
