package org.perftrack.server.products;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.Direction;

/** One page of the product page's benchmarks: bounded by sparklines, keyset by name, filtered by words. */
class ProductPageSliceTest {

  private static final Predicate<String> SECONDARY = m -> m.equals("ctx-switches-per-op");

  /** Benchmarks a..e on two machines, each with time-per-op and ctx-switches-per-op; "z" only a secondary metric. */
  private static List<ProductQueries.Series> series() {
    List<ProductQueries.Series> all = new ArrayList<>();
    long id = 1;
    for (String b : List.of("a", "b", "c", "d", "e")) {
      for (String metric : List.of("ctx-switches-per-op", "time-per-op")) {
        for (String machine : List.of("m1", "m2")) {
          all.add(new ProductQueries.Series(id++, b, metric, "us", Direction.LOWER_IS_BETTER, machine));
        }
      }
    }
    all.add(new ProductQueries.Series(id, "z", "ctx-switches-per-op", "count", Direction.LOWER_IS_BETTER, "m3"));
    return all;
  }

  private static List<String> benchmarks(ProductPage.Slice slice) {
    return slice.series().stream().map(ProductQueries.Series::benchmark).distinct().toList();
  }

  @Test
  void aPageHoldsBenchmarksUntilItsSparklinesAndNamesTheLastOneForTheNext() {
    ProductPage.Slice first = ProductPage.Slice.of(series(), null, null, SECONDARY, 4);
    ProductPage.Slice second = ProductPage.Slice.of(series(), first.next(), null, SECONDARY, 4);
    ProductPage.Slice last = ProductPage.Slice.of(series(), "d", null, SECONDARY, 4);

    assertThat(benchmarks(first)).containsExactly("a", "b");
    assertThat(first.next()).isEqualTo("b");
    assertThat(benchmarks(second)).containsExactly("c", "d");
    assertThat(benchmarks(last)).containsExactly("e", "z");
    assertThat(last.next()).isNull();
    assertThat(first.machines()).containsExactly("m1", "m2", "m3");
    assertThat(first.benchmarks()).isEqualTo(6);
  }

  @Test
  void secondaryMetricsReadTheirLatestLevelUnlessTheBenchmarkHasNoPrimaryOne() {
    ProductPage.Slice last = ProductPage.Slice.of(series(), "d", null, SECONDARY, 4);

    assertThat(last.series()).filteredOn(s -> last.latestOnly().contains(s.id()))
        .allMatch(s -> s.benchmark().equals("e") && s.metric().equals("ctx-switches-per-op")).hasSize(2);
    assertThat(last.series()).filteredOn(s -> s.benchmark().equals("z"))
        .noneMatch(s -> last.latestOnly().contains(s.id()));
  }

  @Test
  void theFilterKeepsBenchmarksWhoseBenchmarkAndMetricContainEveryWord() {
    ProductPage.Slice time = ProductPage.Slice.of(series(), null, "C TIME", SECONDARY, 100);
    ProductPage.Slice none = ProductPage.Slice.of(series(), null, "nothing", SECONDARY, 100);

    assertThat(benchmarks(time)).containsExactly("c");
    assertThat(time.series()).allMatch(s -> s.metric().equals("time-per-op"));
    assertThat(time.benchmarks()).isEqualTo(1);
    assertThat(none.series()).isEmpty();
    assertThat(none.next()).isNull();
  }
}
