package org.perftrack.server.alerts;

import org.perftrack.wire.Quantities;
import org.perftrack.server.web.Wording;

/** Numbers as mails print them: short, and the same in the subject, the HTML and the text. */
final class MailFormat {

  private MailFormat() {}

  /** 2.6666 → "×2.67", 0.5 → "2× less", 400.3 → "×400": as the pages word it. */
  static String ratio(double r) {
    return Wording.ratio(r);
  }

  /** A value with its unit as the pages write it: "48.02 us", "3.18 GB/s", "0.001983" for a pure number. */
  static String quantity(double v, String unit) {
    return Quantities.quantity(v, unit);
  }

  /** A p-value as a confidence a reader can weigh: "p < 0.001", "p = 0.012". */
  static String confidence(double p) {
    return Double.isNaN(p) ? "n/a" : Quantities.p(p);
  }
}
