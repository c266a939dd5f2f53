package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.server.web.LimitsProperties;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 12 item 3: clients that send a request body a byte at a time must not take every worker. 210 of them
 * (more than Tomcat's 200 workers) post to {@code /login} over real loopback sockets; while they drip,
 * {@code /actuator/health} must answer. Before the fix it did not answer until the clients stopped.
 */
class SlowClientsTest extends IntegrationTest {

  static final int CLIENTS = 210;
  /**
   * Far beyond noise: health answered in 0.6-4 s at a load of 13-17 on 2 cores; it never answers while every
   * worker is held (the clients drip for 60 s, twice the bound).
   */
  static final Duration HEALTH_BOUND = Duration.ofSeconds(30);
  /** The slow clients give up after this, so that the test ends even when health never answers. */
  static final Duration DRIP_FOR = Duration.ofSeconds(60);

  @Autowired
  private LimitsProperties limits;

  @Test
  void healthAnswersWhileMoreSlowClientsThanWorkersDripTheirBodies() throws Exception {
    List<Socket> slow = new ArrayList<>();
    AtomicBoolean stop = new AtomicBoolean();
    Thread dripper = new Thread(() -> drip(slow, stop), "dripper");
    try {
      for (int i = 0; i < CLIENTS; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(20);
        OutputStream out = s.getOutputStream();
        out.write(("POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: 100000\r\n\r\nu").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        slow.add(s);
      }
      dripper.start();
      Thread.sleep(3_000); // let the server take every slow request in hand

      long start = System.nanoTime();
      int status = health(port);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      int refused = refused(slow, CLIENTS - limits.maxBodiesPerAddress(), System.nanoTime() + HEALTH_BOUND.toNanos());
      System.out.printf("SlowClientsTest: %d slow clients, health %d after %d ms, %d refused%n",
          CLIENTS, status, took.toMillis(), refused);

      assertThat(status).isEqualTo(200);
      assertThat(took).isLessThan(HEALTH_BOUND);
      assertThat(refused).as("answered 503 without reading their bodies")
          .isGreaterThanOrEqualTo(CLIENTS - limits.maxBodiesPerAddress());
    } finally {
      stop.set(true);
      dripper.join(5_000);
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  /** GET /actuator/health; -1 when it did not answer within the bound. */
  static int health(int port) throws InterruptedException {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
          + "/actuator/health")).timeout(HEALTH_BOUND.plusSeconds(5)).GET().build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  /** One byte per client every 200 ms, for at most {@link #DRIP_FOR}. */
  static void drip(List<Socket> slow, AtomicBoolean stop) {
    long end = System.nanoTime() + DRIP_FOR.toNanos();
    while (!stop.get() && System.nanoTime() < end) {
      for (Socket s : slow) {
        try {
          s.getOutputStream().write('x');
          s.getOutputStream().flush();
        } catch (IOException closedByTheServer) {
          // refused: the server answered and closed the connection
        }
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * How many slow clients were answered 503: their answers are read as they come, until {@code expected} are or
   * {@code deadline} ({@link System#nanoTime}) has passed, so that a loaded machine's late answers count too.
   */
  private static int refused(List<Socket> slow, int expected, long deadline) {
    Map<Socket, ByteArrayOutputStream> heads = new HashMap<>();
    int n = 0;
    do {
      n = 0;
      for (Socket s : slow) {
        ByteArrayOutputStream head = heads.computeIfAbsent(s, k -> new ByteArrayOutputStream());
        try {
          InputStream in = s.getInputStream();
          for (int b; head.size() < 12 && (b = in.read()) >= 0; ) {
            head.write(b);
          }
        } catch (SocketTimeoutException stillReading) {
          // the server is still reading this one's body (or its answer is on the way)
        } catch (IOException e) {
          // reset after the answer: counted only when the status line was read
        }
        if (head.toString(StandardCharsets.US_ASCII).equals("HTTP/1.1 503")) {
          n++;
        }
      }
    } while (n < expected && System.nanoTime() < deadline);
    return n;
  }
}
