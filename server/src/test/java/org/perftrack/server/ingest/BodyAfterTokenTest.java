package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;

/**
 * Issue 12 item 2: a file upload labelled as a form is not read before its token is checked, and a
 * chunked body over the 16 MiB limit is a 413, not a 500. Raw sockets: the request is still being sent
 * when the answer must already come.
 */
class BodyAfterTokenTest extends IntegrationTest {

  static final int MIB = 1 << 20;

  @Test
  void anAnonymousChunkedFormUploadIsRefusedBeforeItsBodyArrives() throws IOException {
    try (Socket s = open()) {
      OutputStream out = s.getOutputStream();
      headers(out, null);
      chunk(out, new byte[64 * 1024]);
      // the rest of the body never comes: the answer must not wait for it
      assertThat(statusLine(s)).contains(" 401 ");
    }
  }

  @Test
  void aChunkedBodyOverTheLimitIs413NotA500() throws IOException {
    try (Socket s = open()) {
      OutputStream out = s.getOutputStream();
      headers(out, TOKEN);
      byte[] piece = new byte[MIB];
      java.util.Arrays.fill(piece, (byte) ' ');
      try {
        for (int i = 0; i < 17; i++) {
          chunk(out, piece);
        }
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException e) {
        // the server may answer and close before all 17 MiB are sent: its answer is still readable
      }
      assertThat(statusLine(s)).contains(" 413 ");
    }
  }

  private Socket open() throws IOException {
    Socket s = new Socket("127.0.0.1", port);
    s.setSoTimeout(30_000);
    return s;
  }

  private static void headers(OutputStream out, String token) throws IOException {
    out.write(("POST /api/v1/runs?format=hyperfine&product=p&version=1.0&machine=m HTTP/1.1\r\n"
        + "Host: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n"
        + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n").getBytes(StandardCharsets.US_ASCII));
  }

  private static void chunk(OutputStream out, byte[] data) throws IOException {
    out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(data);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static String statusLine(Socket s) throws IOException {
    return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
  }
}
