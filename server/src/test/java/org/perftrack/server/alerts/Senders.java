package org.perftrack.server.alerts;

import org.springframework.context.ApplicationContext;

/**
 * For tests of other packages: one whole pass of a server's outbox sender, as its thread makes one every poll
 * interval. When it returns, every mail due was handed to SMTP: a test asserts what was (not) sent after it, instead
 * of watching the mailbox for a while.
 */
public final class Senders {

  private Senders() {
  }

  public static void drain(ApplicationContext server) {
    server.getBean(OutboxSender.class).drain();
  }
}
