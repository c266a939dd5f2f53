package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/**
 * Issue 26 item 2: anonymous posts that send their body a byte at a time are answered 401 at once; the server
 * must then close their connections rather than read the rest of each body on a worker thread, on every path.
 * 210 of them (more than Tomcat's 200 workers) send over real loopback sockets and keep dripping;
 * health must answer and every one of them must be closed. Before the fix health did not answer while they
 * dripped, and none was closed.
 */
class SlowRefusedBodiesTest extends IntegrationTest {

  static final int CLIENTS = 210;
  /** Far beyond noise (health answers in seconds on a loaded machine); it never answers while every worker drains. */
  static final Duration HEALTH_BOUND = Duration.ofSeconds(30);

  /**
   * The API without a token (401), a page's form without a session (403), a page that takes no body (200). (The
   * actuator's endpoints read a body if there is one: those readers are bounded per address, see SlowClientsTest.)
   */
  static final String[] REQUESTS = {"POST /api/v1/runs", "POST /lab/run-now", "GET /"};

  @Test
  void refusedSlowBodiesAreNotReadAndTheirConnectionsClosed() throws Exception {
    List<Socket> slow = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    Thread dripper = new Thread(() -> SlowClientsTest.drip(slow, stop), "dripper");
    try {
      for (int i = 0; i < CLIENTS; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(20);
        OutputStream out = s.getOutputStream();
        out.write((REQUESTS[i % REQUESTS.length] + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: 100000\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        slow.add(s);
      }
      dripper.start();
      Thread.sleep(3_000); // let the server answer them all

      long start = System.nanoTime();
      int health = SlowClientsTest.health(port);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      int closed = closedAfterAnswer(slow, System.nanoTime() + HEALTH_BOUND.toNanos());
      System.out.printf("SlowRefusedBodiesTest: %d slow anonymous posts, health %d after %d ms, %d closed%n",
          CLIENTS, health, took.toMillis(), closed);

      assertThat(health).isEqualTo(200);
      assertThat(took).isLessThan(HEALTH_BOUND);
      assertThat(closed).as("connections closed after their answer, bodies unread").isEqualTo(CLIENTS);
    } finally {
      stop.set(true);
      dripper.join(5_000);
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void aSmallBodySentAtOnceWithABadTokenStillGetsItsAnswer() {
    Http.Response r = http().postJson("/api/v1/runs", "{\"id\": \"" + "x".repeat(50_000) + "\"}", "not-a-token");

    assertThat(r.status()).isEqualTo(401);
    assertThat(r.body()).contains("not valid");
  }

  /**
   * How many of the clients were answered (without reading their bodies) and then found their connection closed
   * by the server before {@code deadline}.
   */
  private static int closedAfterAnswer(List<Socket> slow, long deadline) {
    List<Socket> open = new ArrayList<>(slow);
    List<Socket> answered = new ArrayList<>();
    int closed = 0;
    while (!open.isEmpty() && System.nanoTime() < deadline) {
      for (var it = open.iterator(); it.hasNext(); ) {
        Socket s = it.next();
        try {
          InputStream in = s.getInputStream();
          if (!answered.contains(s)) {
            String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            if (!status.startsWith("HTTP/1.1 ")) {
              it.remove(); // not answered: not counted
              continue;
            }
            answered.add(s);
          }
          while (in.read() >= 0) {
            // the rest of the answer
          }
          closed++;
          it.remove();
        } catch (SocketTimeoutException stillOpen) {
          // look again on the next pass
        } catch (IOException reset) {
          if (answered.contains(s)) {
            closed++;
          }
          it.remove();
        }
      }
    }
    return closed;
  }
}
