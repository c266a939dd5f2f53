package org.perftrack.agent.upload;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.util.List;

/**
 * Fetches the server's report of stored runs ({@code GET /api/v1/runs/{id}/report?format=markdown|junit}) for a
 * CI system to show, and joins the reports of several runs into one file.
 */
public final class Reports {

  private final String base;
  private final String token;

  public Reports(String server, String token) {
    this.base = server.replaceAll("/+$", "");
    this.token = token;
  }

  /** The report of one run in {@code format}; null when the server has no such run (it waits in the spool). */
  public String fetch(String runId, String format) throws IOException {
    URL url = new URL(base + "/api/v1/runs/" + URLEncoder.encode(runId, "UTF-8") + "/report?format=" + format);
    HttpURLConnection http = (HttpURLConnection) url.openConnection();
    try {
      http.setConnectTimeout(10_000);
      http.setReadTimeout(60_000);
      http.setRequestProperty("Authorization", "Bearer " + token);
      int status = http.getResponseCode();
      if (status == 404) {
        return null;
      }
      if (status != 200) {
        throw new IOException("the server answered HTTP " + status + " for the report of run " + runId);
      }
      return Answers.text(http.getInputStream());
    } finally {
      http.disconnect();
    }
  }

  /** Markdown reports one after the other; a line for each run the server does not have yet. */
  public static String markdown(List<String> runIds, List<String> reports) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < runIds.size(); i++) {
      out.append(out.length() == 0 ? "" : "\n");
      out.append(reports.get(i) != null ? reports.get(i)
          : "perftrack: run " + runIds.get(i) + " has not reached the server yet (it waits in the spool).\n");
    }
    return out.toString();
  }

  /** One JUnit document holding every run's test suite, with the totals of all of them. */
  public static String junit(List<String> reports) {
    StringBuilder suites = new StringBuilder();
    long tests = 0;
    long failures = 0;
    long skipped = 0;
    for (String report : reports) {
      if (report == null) {
        continue;
      }
      int from = report.indexOf("<testsuite ");
      int to = report.lastIndexOf("</testsuite>");
      if (from < 0 || to < 0) {
        continue;
      }
      String suite = report.substring(from, to + "</testsuite>".length());
      tests += attribute(suite, "tests");
      failures += attribute(suite, "failures");
      skipped += attribute(suite, "skipped");
      suites.append("  ").append(suite).append('\n');
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"perftrack\" tests=\"" + tests
        + "\" failures=\"" + failures + "\" errors=\"0\" skipped=\"" + skipped + "\">\n" + suites + "</testsuites>\n";
  }

  private static long attribute(String suite, String name) {
    String head = suite.substring(0, suite.indexOf('>'));
    int at = head.indexOf(" " + name + "=\"");
    if (at < 0) {
      return 0;
    }
    int from = at + name.length() + 3;
    return Long.parseLong(head.substring(from, head.indexOf('"', from)));
  }
}
