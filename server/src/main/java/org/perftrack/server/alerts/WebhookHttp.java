package org.perftrack.server.alerts;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.springframework.stereotype.Component;

/**
 * One HTTP/1.1 call to a webhook, over a socket connected to the address {@link NetworkGuard} checked (not to
 * whatever the name resolves to a moment later); TLS verifies the certificate against the URL's host name. A
 * redirect is an answer like any other, never followed. The connection, the whole call and the answer read
 * ({@link #MAX_ANSWER} bytes, the rest ignored) are bounded.
 */
@Component
class WebhookHttp {

  /** What the receiver said: its status and the start of its answer, for the delivery's record. */
  record Answer(int status, String excerpt) {}

  static final int MAX_ANSWER = 16 * 1024;
  static final int EXCERPT = 300;

  private final NetworkGuard guard;
  private final WebhooksProperties props;

  WebhookHttp(NetworkGuard guard, WebhooksProperties props) {
    this.guard = guard;
    this.props = props;
  }

  Answer send(WebhookBodies.Call call) throws IOException, NetworkGuard.Refused {
    URI uri = call.uri();
    String host = uri.getHost().replaceAll("^\\[|\\]$", "");
    boolean tls = "https".equalsIgnoreCase(uri.getScheme());
    int port = uri.getPort() < 0 ? (tls ? 443 : 80) : uri.getPort();
    InetAddress address = guard.check(host);
    long deadline = System.nanoTime() + props.timeout().toNanos();
    try (Socket plain = new Socket()) {
      plain.connect(new InetSocketAddress(address, port), (int) props.connectTimeout().toMillis());
      plain.setSoTimeout((int) props.timeout().toMillis());
      Socket socket = tls ? tls(plain, host, port) : plain;
      write(socket.getOutputStream(), call, uri, port, tls);
      return read(socket.getInputStream(), deadline);
    }
  }

  private static Socket tls(Socket plain, String host, int port) throws IOException {
    SSLSocket ssl;
    try {
      ssl = (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket(plain, host, port, true);
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("no TLS in this JDK", e);
    }
    SSLParameters params = ssl.getSSLParameters();
    params.setEndpointIdentificationAlgorithm("HTTPS");
    if (!host.matches("[0-9.]+|.*:.*")) {
      params.setServerNames(List.of(new SNIHostName(host)));
    }
    ssl.setSSLParameters(params);
    ssl.startHandshake();
    return ssl;
  }

  private static void write(OutputStream out, WebhookBodies.Call call, URI uri, int port, boolean tls)
      throws IOException {
    String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
        + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    boolean defaultPort = port == (tls ? 443 : 80);
    StringBuilder head = new StringBuilder(call.method()).append(' ').append(path).append(" HTTP/1.1\r\n")
        .append("Host: ").append(defaultPort ? uri.getHost() : uri.getHost() + ":" + port).append("\r\n")
        .append("User-Agent: perftrack-webhooks\r\n")
        .append("Content-Length: ").append(call.body().length).append("\r\n")
        .append("Connection: close\r\n");
    call.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    head.append("\r\n");
    out.write(head.toString().getBytes(StandardCharsets.UTF_8));
    out.write(call.body());
    out.flush();
  }

  /** The status line's code and the first bytes of the body; at most {@link #MAX_ANSWER} bytes are read. */
  private static Answer read(InputStream in, long deadline) throws IOException {
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    int n;
    while (seen.size() < MAX_ANSWER && (n = in.read(buffer, 0, Math.min(buffer.length, MAX_ANSWER - seen.size()))) > 0) {
      seen.write(buffer, 0, n);
      if (System.nanoTime() > deadline) {
        throw new SocketTimeoutException("the answer took longer than perftrack.webhooks.timeout");
      }
      if (complete(seen.toString(StandardCharsets.ISO_8859_1))) {
        break;
      }
    }
    String text = seen.toString(StandardCharsets.UTF_8);
    if (!text.startsWith("HTTP/1.") || text.length() < 12) {
      throw new IOException("the receiver did not answer HTTP");
    }
    int status;
    try {
      status = Integer.parseInt(text.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new IOException("the receiver did not answer HTTP");
    }
    int bodyStart = text.indexOf("\r\n\r\n");
    String body = bodyStart < 0 ? "" : text.substring(bodyStart + 4).strip();
    String excerpt = body.length() > EXCERPT ? body.substring(0, EXCERPT) + "…" : body;
    return new Answer(status, excerpt.replaceAll("[\\p{Cntrl}&&[^\n\t]]", "?"));
  }

  /** Whether the head and as much body as Content-Length promises (or enough for an excerpt) have arrived. */
  private static boolean complete(String seen) {
    int end = seen.indexOf("\r\n\r\n");
    if (end < 0) {
      return false;
    }
    String head = seen.substring(0, end).toLowerCase(Locale.ROOT);
    int at = head.indexOf("\r\ncontent-length:");
    if (at >= 0) {
      String value = head.substring(at + 17).split("\r\n", 2)[0].trim();
      try {
        return seen.length() - end - 4 >= Long.parseLong(value);
      } catch (NumberFormatException e) {
        return true;
      }
    }
    return seen.length() - end - 4 >= EXCERPT;
  }
}
