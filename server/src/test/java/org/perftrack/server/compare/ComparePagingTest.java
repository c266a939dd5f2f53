package org.perftrack.server.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload.ResultUpload;

/**
 * Issue 12 item 13: a comparison over more metrics than one request should compute is paged by benchmark,
 * {@link ComparePages#BUDGET} comparisons a page, for anonymous readers and their CSV; a signed-in reader
 * can ask for every benchmark at once, and gets all of them in the CSV.
 */
class ComparePagingTest extends IntegrationTest {

  private static final int BENCHMARKS = ComparePages.BUDGET + 100;

  private String product;
  private String machine;

  @BeforeEach
  void twoVersionsOfSixHundredBenchmarks() {
    product = unique("cygwin");
    machine = unique("xp");
    for (String version : new String[] {"1.0", "2.0"}) {
      ResultUpload[] results = IntStream.range(0, BENCHMARKS)
          .mapToObj(i -> result("b%03d".formatted(i), 10.0, 10.1, 9.9)).toArray(ResultUpload[]::new);
      assertThat(http().postJson("/api/v1/runs", json(run(product, version, machine, results)), TOKEN).status())
          .isEqualTo(201);
    }
  }

  @Test
  void anAnonymousComparisonComputesOnePageOfBenchmarksAndLinksTheNext() {
    String first = http().page(path("/compare")).body();
    String next = http().page(path("/compare") + "&from=b" + ComparePages.BUDGET).body();

    assertThat(rows(first)).isEqualTo(ComparePages.BUDGET);
    assertThat(first).contains("Next: from b" + ComparePages.BUDGET).contains("Sign in to see every benchmark")
        .doesNotContain(">b" + ComparePages.BUDGET + "<");
    assertThat(rows(next)).isEqualTo(BENCHMARKS - ComparePages.BUDGET);
    assertThat(next).contains("First page").doesNotContain("Next: from");
  }

  @Test
  void anAnonymousCsvHoldsThePageAndASignedInOneEveryBenchmark() {
    FormClient signedIn = signedInAdmin();

    String anonymous = http().get(path("/compare.csv")).body();
    String everything = signedIn.get(path("/compare.csv")).body();
    String all = signedIn.get(path("/compare") + "&all=true").body();

    assertThat(anonymous.split("\r\n")).hasSize(1 + ComparePages.BUDGET);
    assertThat(everything.split("\r\n")).hasSize(1 + BENCHMARKS);
    assertThat(rows(all)).isEqualTo(BENCHMARKS);
  }

  @Test
  void askingForAllWithoutSigningInStillGetsOnePage() {
    assertThat(rows(http().page(path("/compare") + "&all=true").body())).isEqualTo(ComparePages.BUDGET);
  }

  private String path(String page) {
    return page + "?product=" + product + "&base=1.0&head=2.0&machine=" + machine;
  }

  private static int rows(String body) {
    return body.split("<tr class=\"verdict-").length - 1;
  }
}
