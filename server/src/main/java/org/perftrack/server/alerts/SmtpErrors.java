package org.perftrack.server.alerts;

/** Short, operator-readable SMTP failures for the outbox's {@code last_error}. */
final class SmtpErrors {

  private static final int MAX = 500;

  private SmtpErrors() {}

  /** "MailSendException: Mail server connection failed … ← ConnectException: Connection refused". */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder(line(e));
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != e) {
      sb.append(" ← ").append(line(root));
    }
    return sb.length() > MAX ? sb.substring(0, MAX - 1) + "…" : sb.toString();
  }

  private static String line(Throwable t) {
    String m = t.getMessage() == null ? "" : t.getMessage().strip();
    int nl = m.indexOf('\n');
    return t.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl).strip());
  }
}
