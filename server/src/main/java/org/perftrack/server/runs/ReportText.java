package org.perftrack.server.runs;

import java.util.List;
import org.perftrack.server.changes.ChangeLinks;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.pages.Fmt;
import org.perftrack.server.web.Links;

/**
 * A run's report as CI systems show it: Markdown for a pull request comment (changed metrics first, one line when
 * nothing changed) and JUnit XML for test reporters (one test case per benchmark and metric, a failure per
 * regression, skipped when there was nothing to compare with).
 */
final class ReportText {

  private static final Fmt FMT = new Fmt();

  private ReportText() {}

  /** The page that shows the run (a branch's build with its branch, start point and verdicts). */
  static String link(RunReports.Report r, String base) {
    return base + "/runs/" + Links.segment(r.id());
  }

  /** With a "What changed" line of links ({@code changes}) under the heading when a row changed. */
  static String markdown(RunReports.Report r, String base, List<ChangeLinks.OfStep> changes) {
    List<RunReports.Row> changed = r.rows().stream().filter(RunReports.Row::changed).toList();
    List<RunReports.Row> rest = r.rows().stream().filter(row -> !row.changed()).toList();
    String what = code(r.product()) + " " + code(r.version()) + " on " + code(r.machine())
        + (r.branch() == null ? "" : " (branch " + code(r.branch()) + ", against " + code(r.startPoint()) + ")");
    String details = "[details](" + link(r, base) + ")";
    if (r.waiting()) {
      return "perftrack: " + what + " is " + r.session().note() + ". " + details + "\n";
    }
    String session = r.session() == null ? "" : "; " + r.session().note();
    if (changed.isEmpty()) {
      return "perftrack: no change in " + what + " (" + count(rest.size(), "metric") + session + "). " + details
          + "\n";
    }
    StringBuilder md = new StringBuilder();
    md.append("### perftrack: ").append(summary(r)).append('\n').append("Run of ").append(what).append(session.isEmpty() ? ""
        : " (" + session.substring(2) + ")").append(". ").append(details).append("\n\n");
    changes.forEach(c -> md.append(changed(c)));
    table(md, changed);
    if (!rest.isEmpty()) {
      md.append("\n<details><summary>").append(count(rest.size(), "other metric")).append("</summary>\n\n");
      table(md, rest);
      md.append("\n</details>\n");
    }
    return md.toString();
  }

  /** "What changed: [changes from `a` to `b`](…) · [changes in `b`](…)", one line per baseline. */
  private static String changed(ChangeLinks.OfStep c) {
    String range = c.range() == null ? null : "[changes from " + code(c.from()) + " to " + code(c.to()) + "]("
        + markdownUrl(c.range()) + ")";
    String version = c.version() == null ? null : "[changes in " + code(c.at()) + "](" + markdownUrl(c.version()) + ")";
    return "What changed: " + (range == null ? version : version == null ? range : range + " · " + version) + "\n\n";
  }

  /** An address as a Markdown link's destination: the characters that would end it or break the line escaped. */
  private static String markdownUrl(String url) {
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29").replace("<", "%3C").replace(">", "%3E")
        .replaceAll("[\\r\\n]", "");
  }

  private static String summary(RunReports.Report r) {
    long regressions = r.regressions();
    long improvements = r.rows().stream().filter(x -> x.verdict() == Verdict.IMPROVEMENT).count();
    String s = regressions > 0 ? count(regressions, "regression") : "";
    if (improvements > 0) {
      s += (s.isEmpty() ? "" : ", ") + count(improvements, "improvement");
    }
    long inconclusive = r.rows().stream().filter(x -> x.verdict() == Verdict.INCONCLUSIVE).count();
    if (inconclusive > 0) {
      s += (s.isEmpty() ? "" : ", ") + count(inconclusive, "inconclusive change");
    }
    return s;
  }

  private static void table(StringBuilder md, List<RunReports.Row> rows) {
    md.append("| Benchmark | Metric | Baseline | Value | Change | p | Verdict |\n");
    md.append("|---|---|---|---:|---:|---:|---|\n");
    for (RunReports.Row x : rows) {
      md.append("| ").append(cell(x.benchmark())).append(" | ").append(cell(x.metric())).append(" | ")
          .append(x.baselineVersion() == null ? "—" : cell(x.baselineVersion()) + ": "
              + quantity(x.baselineValue(), x.unit()))
          .append(" | ").append(quantity(x.value(), x.unit())).append(" | ").append(change(x)).append(" | ")
          .append(FMT.p(x.pValue())).append(" | ").append(x.changed() ? "**" + label(x) + "**" : label(x))
          .append(" |\n");
    }
  }

  private static String change(RunReports.Row x) {
    return FMT.ratioAndVerdict(x.ratio(), x.direction(), x.unit());
  }

  static String label(RunReports.Row x) {
    return x.verdict() == null ? "not judged (secondary metric)"
        : x.verdict() == Verdict.INSUFFICIENT_DATA ? "no history to compare with" : x.verdict().wire();
  }

  /**
   * A name in a table cell: inline code ({@link #code}), with its pipes escaped, since GFM ends a cell at a pipe even
   * inside a code span and reads {@code \\|} there as the pipe itself.
   */
  private static String cell(String s) {
    return s == null ? "—" : cellText(code(s));
  }

  private static String cellText(String s) {
    return s.replace("|", "\\|");
  }

  /**
   * A name as CommonMark inline code: its text shows as sent and nothing in it is markup (no link, image, raw HTML,
   * emphasis or entity), and GitHub makes no {@code @mention} inside code. The fence is one backtick longer than the
   * longest run of backticks in the name; a name that begins or ends with a backtick is padded with a space on both
   * sides, which the renderer strips. A line break (an old name; uploads refuse them) would end the line: a space.
   */
  static String code(String name) {
    if (name == null || name.isEmpty()) {
      return "—";
    }
    String s = name.replaceAll("[\\r\\n]+", " ");
    int longest = 0;
    for (int i = 0, run = 0; i < s.length(); i++) {
      run = s.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    String fence = "`".repeat(longest + 1);
    String pad = s.startsWith("`") || s.endsWith("`") || s.startsWith(" ") && s.endsWith(" ") ? " " : "";
    return fence + pad + s + pad + fence;
  }

  /** A unit is a name too: written as it is when it is plain letters, digits and {@code / % .}, else as code. */
  private static String quantity(Double value, String unit) {
    String q = FMT.quantity(value, unit);
    return unit == null || PLAIN_UNIT.matcher(unit).matches() ? q : code(q);
  }

  private static final java.util.regex.Pattern PLAIN_UNIT = java.util.regex.Pattern.compile("[\\p{L}\\p{N}/%. ]*");

  private static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  static String junit(RunReports.Report r, String base) {
    long failures = r.waiting() ? 0 : r.regressions();
    // a run whose session is not judged yet has no verdicts: each of its judged metrics is skipped, saying why
    long skipped = r.rows().stream().filter(x -> x.verdict() == Verdict.INSUFFICIENT_DATA
        || r.waiting() && x.verdict() != null).count();
    String suite = "perftrack " + r.product() + " " + r.version() + " on " + r.machine()
        + (r.branch() == null ? "" : " (branch " + r.branch() + ")");
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<testsuites name=\"perftrack\" tests=\"").append(r.rows().size()).append("\" failures=\"")
        .append(failures).append("\" errors=\"0\" skipped=\"").append(skipped).append("\">\n");
    xml.append("  <testsuite name=\"").append(xml(suite)).append("\" tests=\"").append(r.rows().size())
        .append("\" failures=\"").append(failures).append("\" errors=\"0\" skipped=\"").append(skipped)
        .append("\">\n");
    xml.append("    <properties><property name=\"url\" value=\"").append(xml(link(r, base))).append("\"/>");
    if (r.session() != null) {
      xml.append("<property name=\"session\" value=\"").append(xml(r.session().note())).append("\"/>");
    }
    xml.append("</properties>\n");
    for (RunReports.Row x : r.rows()) {
      xml.append("    <testcase classname=\"").append(xml(x.benchmark())).append("\" name=\"").append(xml(x.metric()))
          .append("\" time=\"0\"");
      String against = x.baselineVersion() == null ? "" : FMT.quantity(x.baselineValue(), x.unit()) + " in "
          + x.baselineVersion() + " → " + FMT.quantity(x.value(), x.unit()) + ": " + change(x);
      if (r.waiting() && x.verdict() != null) {
        xml.append(">\n      <skipped message=\"").append(xml(r.session().note())).append("\"/>\n    </testcase>\n");
      } else if (x.verdict() == Verdict.REGRESSION) {
        xml.append(">\n      <failure type=\"regression\" message=\"").append(xml(against + ", p " + FMT.p(x.pValue())))
            .append("\">").append(xml(link(r, base))).append("</failure>\n    </testcase>\n");
      } else if (x.verdict() == Verdict.INSUFFICIENT_DATA) {
        xml.append(">\n      <skipped message=\"no history to compare with\"/>\n    </testcase>\n");
      } else {
        xml.append(">\n      <system-out>").append(xml(label(x) + (against.isEmpty() ? "" : ": " + against)))
            .append("</system-out>\n    </testcase>\n");
      }
    }
    return xml.append("  </testsuite>\n</testsuites>\n").toString();
  }

  /**
   * Text for an XML attribute or element: escaped, and every character XML 1.0 does not allow (control characters
   * but tab and line breaks, U+FFFE, U+FFFF, a lone surrogate) written as U+FFFD, so that the file stays well-formed
   * whatever a name stored before uploads refused these holds.
   */
  private static String xml(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> out.appendCodePoint(xmlChar(c) ? c : 0xFFFD);
      }
    }
    return out.toString();
  }

  /** XML 1.0's {@code Char} production. */
  private static boolean xmlChar(int c) {
    return c == 0x9 || c == 0xA || c == 0xD || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD
        || c >= 0x10000 && c <= 0x10FFFF;
  }
}
