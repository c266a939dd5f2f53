package org.perftrack.server.alerts;

import java.util.Locale;
import org.perftrack.server.web.Wording;

/** Numbers as mails print them: short, and the same in the subject, the HTML and the text. */
final class MailFormat {

  private MailFormat() {}

  /** 2.6666 → "×2.67", 0.5 → "×0.5", 400.3 → "×400": as the pages word it. */
  static String ratio(double r) {
    return Wording.ratio(r);
  }

  /** Three significant digits, no exponent for everyday magnitudes: 48.1, 0.0123, 18000. */
  static String value(double v) {
    double a = Math.abs(v);
    if (a == 0) {
      return "0";
    }
    if (a >= 1000 || a < 0.001) {
      return a >= 1000 && a < 1e9 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }
    int decimals = Math.max(0, 2 - (int) Math.floor(Math.log10(a)));
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** A p-value as a confidence a reader can weigh: "p < 0.001", "p = 0.012". */
  static String confidence(double p) {
    if (Double.isNaN(p)) {
      return "n/a";
    }
    if (p < 0.001) {
      return "p < 0.001";
    }
    return String.format(Locale.ROOT, "p = %.3f", p);
  }
}
