package org.perftrack.server.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.perftrack.server.support.IntegrationTest;

/**
 * An address of a server that comes and goes: a port on this machine that is closed (the server is down), takes
 * requests and never answers them (a server stuck), or passes every connection on to a real server.
 */
final class Relay implements AutoCloseable {

  private final int port = IntegrationTest.freePort();
  private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger accepted = new AtomicInteger();
  private ServerSocket socket;
  private Thread acceptor;

  /** Its address ({@code http://localhost:41234}): nothing listens there before {@link #hold} or {@link #forwardTo}. */
  String url() {
    return "http://localhost:" + port;
  }

  /** Connections taken so far. */
  int accepted() {
    return accepted.get();
  }

  /** Takes connections and never answers. */
  synchronized void hold() throws IOException {
    listen(client -> { });
  }

  /** Passes each connection on to the server on {@code target} of this machine. */
  synchronized void forwardTo(int target) throws IOException {
    listen(client -> {
      Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
      open.add(server);
      pipe(client, server);
      pipe(server, client);
    });
  }

  /** Closes the port and every connection through it. */
  synchronized void down() throws IOException {
    if (socket != null) {
      socket.close();
      socket = null;
      try {
        acceptor.join(10_000); // a socket closed while a thread accepts on it lets its port go when that thread ends
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (open) {
      for (Socket s : open) {
        s.close();
      }
      open.clear();
    }
  }

  @Override
  public void close() throws IOException {
    down();
  }

  private interface Handler {
    void accept(Socket client) throws IOException;
  }

  private void listen(Handler handler) throws IOException {
    down();
    ServerSocket listening = new ServerSocket();
    listening.setReuseAddress(true);
    listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    socket = listening;
    acceptor = new Thread(() -> {
      while (!listening.isClosed()) {
        try {
          Socket client = listening.accept();
          open.add(client);
          accepted.incrementAndGet();
          handler.accept(client);
        } catch (IOException e) {
          // closed: the relay is down
        }
      }
    }, "relay-" + port);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Copies what {@code from} sends to {@code to}; when one of them closes, both close. */
  private static void pipe(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      try (Socket a = from; Socket b = to) {
        a.getInputStream().transferTo(b.getOutputStream());
      } catch (IOException e) {
        // one side closed
      }
    }, "relay-pipe");
    t.setDaemon(true);
    t.start();
  }
}
