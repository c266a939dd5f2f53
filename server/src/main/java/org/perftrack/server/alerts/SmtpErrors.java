package org.perftrack.server.alerts;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

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

  /** Whether the server could not be reached at all (as opposed to refusing this one message). */
  static boolean isConnectionProblem(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof SocketTimeoutException
          || t.getClass().getSimpleName().equals("MailConnectException")) {
        return true;
      }
    }
    return false;
  }

  private static String line(Throwable t) {
    String m = t.getMessage() == null ? "" : t.getMessage().strip();
    int nl = m.indexOf('\n');
    return t.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl).strip());
  }
}
