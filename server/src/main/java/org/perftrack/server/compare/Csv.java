package org.perftrack.server.compare;

import java.util.List;
import java.util.Locale;
import org.perftrack.server.detection.ComparedMetric;

/**
 * The compare table as CSV (RFC 4180), safe to open in a spreadsheet: a row per metric and machine, with what
 * detection made of the pair and, when the stored step between them may start at any of a run of versions, the
 * first and last of them and the likeliest; {@code from_zero} true where the base is 0 and {@code ratio} is empty.
 */
final class Csv {

  private Csv() {}

  static String of(List<CompareTable.Row> rows, String base, String head) {
    StringBuilder sb = new StringBuilder(
        "machine,benchmark,metric,unit,direction,base_version,head_version,base_value,head_value,ratio,p_value,verdict,detection,"
            + "first_suspect,last_suspect,most_likely,from_zero\r\n");
    for (CompareTable.Row r : rows) {
      sb.append(field(r.machine())).append(',').append(field(r.benchmark())).append(',').append(field(r.metric()))
          .append(',').append(field(r.unit())).append(',').append(r.direction().wire()).append(',').append(field(base))
          .append(',').append(field(head)).append(',').append(number(r.baseValue())).append(',')
          .append(number(r.headValue())).append(',').append(number(r.ratio())).append(',')
          .append(r.pValue() == null ? "" : number(r.pValue())).append(',').append(r.verdict().wire()).append(',')
          .append(r.compared().detection() == null ? "" : r.compared().detection().wire()).append(',');
      ComparedMetric.Suspects suspects = r.compared().suspects();
      if (suspects == null) {
        sb.append(",,");
      } else {
        sb.append(field(suspects.firstSuspect())).append(',').append(field(suspects.lastSuspect())).append(',')
            .append(field(suspects.version()));
      }
      sb.append(',').append(r.compared().fromZero()).append("\r\n");
    }
    return sb.toString();
  }

  /** Quotes when needed; a leading = + - @ would make a spreadsheet run a formula, so it gets a quote mark. */
  static String field(String s) {
    if (s == null) {
      return "";
    }
    String v = !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
    if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
      return '"' + v.replace("\"", "\"\"") + '"';
    }
    return v;
  }

  /** Empty for a number that is not one (a ratio to zero), as the JSON's null. */
  private static String number(double d) {
    return !Double.isFinite(d) ? "" : String.format(Locale.ROOT, "%.6g", d);
  }
}
