package org.perftrack.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.unit.DataSize;

/** The bounds of {@link BodyReadersFilter}: per address, in all, and never for requests without a body. */
class BodyReadersFilterTest {

  private final BodyReadersFilter filter =
      new BodyReadersFilter(new LimitsProperties(DataSize.ofMegabytes(16), DataSize.ofGigabytes(1), 1000, 3, 2, null));
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<Thread> held = new ArrayList<>();

  @Test
  void aThirdBodyFromOneAddressIsRefusedWithoutReachingTheApplication() throws Exception {
    CountDownLatch inside = new CountDownLatch(2);
    hold("10.0.0.1", inside);
    hold("10.0.0.1", inside);
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    MockHttpServletResponse third = send(post("10.0.0.1"));
    MockHttpServletResponse other = sendAndCount(post("10.0.0.2"));

    assertThat(third.getStatus()).isEqualTo(503);
    assertThat(third.getHeader("Retry-After")).isEqualTo("5");
    assertThat(third.getContentType()).isEqualTo("application/problem+json");
    assertThat(third.getContentAsString()).contains("from 10.0.0.1 (at most 2)");
    assertThat(other.getStatus()).as("another address is not held back").isEqualTo(200);
    releaseAll();
  }

  @Test
  void bodiesBeyondTheBoundInAllAreRefusedAndRequestsWithoutABodyNeverAre() throws Exception {
    CountDownLatch inside = new CountDownLatch(3);
    hold("10.0.0.1", inside);
    hold("10.0.0.2", inside);
    hold("10.0.0.3", inside);
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    MockHttpServletResponse fourth = send(post("10.0.0.4"));
    MockHttpServletRequest health = new MockHttpServletRequest("GET", "/actuator/health");
    health.setRemoteAddr("10.0.0.1");
    MockHttpServletResponse healthy = sendAndCount(health);

    assertThat(fourth.getStatus()).isEqualTo(503);
    assertThat(fourth.getContentAsString()).contains("as many request bodies as it will at once (3)");
    assertThat(healthy.getStatus()).isEqualTo(200);
    releaseAll();

    assertThat(sendAndCount(post("10.0.0.4")).getStatus()).as("permits come back").isEqualTo(200);
  }

  /**
   * Issue 26 item 6: 64 concurrent 16 MB bodies in a 1 GiB heap ended in OutOfMemoryError. Each body reserves the
   * heap it takes while parsed; beyond the budget: 503 at once, nothing read. Small bodies hardly count.
   */
  @Test
  void largeBodiesBeyondTheHeapBudgetAreRefusedWhileSmallOnesGoOn() throws Exception {
    // room for two bodies of 16 MB and a little more
    LimitsProperties limits = new LimitsProperties(DataSize.ofMegabytes(16), DataSize.ofGigabytes(1), 1000, 100, 100,
        DataSize.ofMegabytes(16L * LimitsProperties.HEAP_PER_BODY_BYTE * 5 / 2));
    BodyReadersFilter budgeted = new BodyReadersFilter(limits);
    CountDownLatch inside = new CountDownLatch(2);
    for (int i = 0; i < 2; i++) {
      MockHttpServletRequest big = post("10.0.0." + i);
      big.setContent(new byte[16 << 20]);
      hold(budgeted, big, inside);
    }
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    MockHttpServletRequest third = post("10.0.0.3");
    third.setContent(new byte[16 << 20]);
    MockHttpServletResponse refused = new MockHttpServletResponse();
    budgeted.doFilter(third, refused, (req, res) -> {
      throw new AssertionError("reached the application");
    });
    MockHttpServletResponse small = new MockHttpServletResponse();
    budgeted.doFilter(post("10.0.0.4"), small, (req, res) -> ((MockHttpServletResponse) res).setStatus(200));

    assertThat(refused.getStatus()).isEqualTo(503);
    assertThat(refused.getContentAsString()).contains("perftrack.limits.body-memory");
    assertThat(small.getStatus()).isEqualTo(200);
    releaseAll();
  }

  @Test
  void unsetTheHeapBudgetIsHalfTheHeapAndNoBodyReservesMoreThanAllOfIt() {
    LimitsProperties unset = new LimitsProperties(DataSize.ofMegabytes(16), DataSize.ofGigabytes(1), 1000, 100, 32, null);
    assertThat(unset.bodyMemoryBytes()).isEqualTo(Runtime.getRuntime().maxMemory() / 2);
    assertThat(unset.heapOf(-1)).isEqualTo(Math.min(16L * 1024 * 1024 * LimitsProperties.HEAP_PER_BODY_BYTE,
        unset.bodyMemoryBytes()));
    assertThat(unset.heapOf(2L << 30)).as("an import is parsed a line at a time").isEqualTo(unset.heapOf(-1));
    LimitsProperties tiny = new LimitsProperties(DataSize.ofMegabytes(16), DataSize.ofGigabytes(1), 1000, 100, 32,
        DataSize.ofMegabytes(1));
    assertThat(tiny.heapOf(16 << 20)).isEqualTo(1 << 20);
  }

  /**
   * Unset, the largest body is 16 MB, or less when the budget cannot hold one such body (each byte reserves
   * {@link LimitsProperties#HEAP_PER_BODY_BYTE}); an import's line is at most half of it (an import holds two).
   */
  @Test
  void unsetTheLargestBodyIsWhatTheBudgetHoldsOneOfAtMost16MB() {
    LimitsProperties large = new LimitsProperties(null, DataSize.ofGigabytes(1), 1000, 100, 32, DataSize.ofGigabytes(1));
    LimitsProperties small = new LimitsProperties(null, DataSize.ofGigabytes(1), 1000, 100, 32,
        DataSize.ofMegabytes(192));

    assertThat(large.maxBodyBytes()).isEqualTo(DataSize.ofMegabytes(16));
    assertThat(large.maxImportLineBytes()).isEqualTo(8 << 20);
    assertThat(small.maxBodyBytes().toBytes()).isEqualTo((192L << 20) / LimitsProperties.HEAP_PER_BODY_BYTE);
    assertThat(small.heapOf(-1)).isLessThanOrEqualTo(small.bodyMemoryBytes());
    assertThat(small.bodyLimit("/api/v1/runs")).isEqualTo(small.maxBodyBytes().toBytes());
    assertThat(new LimitsProperties(DataSize.ofMegabytes(16), DataSize.ofGigabytes(1), 1000, 100, 32,
        DataSize.ofMegabytes(192)).maxBodyBytes()).as("as set").isEqualTo(DataSize.ofMegabytes(16));
  }

  private static MockHttpServletRequest post(String address) {
    MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/runs");
    request.setRemoteAddr(address);
    request.setContentType("application/json");
    request.setContent("{}".getBytes());
    return request;
  }

  /** A request that stays inside the application until {@link #releaseAll}. */
  private void hold(String address, CountDownLatch inside) {
    hold(filter, post(address), inside);
  }

  private void hold(BodyReadersFilter through, MockHttpServletRequest request, CountDownLatch inside) {
    Thread t = new Thread(() -> {
      try {
        through.doFilter(request, new MockHttpServletResponse(), (req, res) -> {
          inside.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    t.start();
    held.add(t);
  }

  private void releaseAll() throws InterruptedException {
    release.countDown();
    for (Thread t : held) {
      t.join(10_000);
    }
  }

  private MockHttpServletResponse send(MockHttpServletRequest request) throws Exception {
    MockHttpServletResponse response = new MockHttpServletResponse();
    filter.doFilter(request, response, (req, res) -> {
      throw new AssertionError("reached the application");
    });
    return response;
  }

  private MockHttpServletResponse sendAndCount(MockHttpServletRequest request) throws Exception {
    MockHttpServletResponse response = new MockHttpServletResponse();
    filter.doFilter(request, response, (req, res) -> ((MockHttpServletResponse) res).setStatus(200));
    return response;
  }
}
