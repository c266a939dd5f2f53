package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Several runs' reports in one file: the Markdown one after the other, the JUnit suites under one root. */
class ReportsTest {

  private static String suite(String name, int tests, int failures, int skipped) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"perftrack\" tests=\"" + tests + "\">\n"
        + "  <testsuite name=\"" + name + "\" tests=\"" + tests + "\" failures=\"" + failures
        + "\" errors=\"0\" skipped=\"" + skipped + "\">\n    <testcase classname=\"a\" name=\"m\" time=\"0\"/>\n"
        + "  </testsuite>\n</testsuites>\n";
  }

  @Test
  void junitReportsOfSeveralRunsAreOneDocumentWithTheirTotals() {
    String joined = Reports.junit(Arrays.asList(suite("one", 4, 2, 0), null, suite("two", 3, 0, 1)));

    assertThat(joined).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"perftrack\" "
        + "tests=\"7\" failures=\"2\" errors=\"0\" skipped=\"1\">\n  <testsuite name=\"one\"");
    assertThat(joined.split("<testsuite ")).hasSize(3);
    assertThat(joined).endsWith("</testsuite>\n</testsuites>\n").containsOnlyOnce("<?xml");
  }

  @Test
  void aRunTheServerHasNotYetIsSaidInTheMarkdown() {
    String joined = Reports.markdown(Arrays.asList("r1", "r2"), Arrays.asList("perftrack: no change.\n", null));

    assertThat(joined).isEqualTo("perftrack: no change.\n\n"
        + "perftrack: run r2 has not reached the server yet (it waits in the spool).\n");
  }
}
