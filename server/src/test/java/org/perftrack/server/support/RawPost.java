package org.perftrack.server.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 request over a socket of its own, from a chosen local address (127.0.0.x: a client of its own for
 * the server's per-address bounds), with a body given in parts (a large part can be shared by many requests). The
 * body is written on a thread of its own while the answer is read, so an answer given before the body was read
 * (503, 413) is seen even when the server then closes the connection on the rest.
 */
public final class RawPost {

  /** The answer; status -1 when the connection ended before one. */
  public record Answer(int status, String head, String body) {

    public String header(String name) {
      for (String line : head.split("\r\n")) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }
  }

  private RawPost() {}

  public static Answer send(int port, String from, String method, String pathAndQuery, String contentType,
      String token, byte[]... body) {
    return send(port, from, "localhost:" + port, method, pathAndQuery, contentType, token, body);
  }

  /** A GET naming another host than the one it reaches ({@code Host:}), as a client can. */
  public static Answer get(int port, String host, String pathAndQuery, String token) {
    return send(port, "127.0.0.1", host, "GET", pathAndQuery, null, token);
  }

  private static Answer send(int port, String from, String host, String method, String pathAndQuery,
      String contentType, String token, byte[]... body) {
    long length = 0;
    for (byte[] part : body) {
      length += part.length;
    }
    StringBuilder head = new StringBuilder(method).append(' ').append(pathAndQuery).append(" HTTP/1.1\r\n")
        .append("Host: ").append(host).append("\r\n");
    if (contentType != null) {
      head.append("Content-Type: ").append(contentType).append("\r\n");
    }
    if (token != null) {
      head.append("Authorization: Bearer ").append(token).append("\r\n");
    }
    if (body.length > 0) {
      head.append("Content-Length: ").append(length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(from, 0));
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      socket.setSoTimeout(300_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
      Thread writer = new Thread(() -> {
        try {
          for (byte[] part : body) {
            for (int off = 0; off < part.length; off += 64 * 1024) {
              out.write(part, off, Math.min(64 * 1024, part.length - off));
            }
          }
          out.flush();
        } catch (IOException e) {
          // the server answered and closed without reading the rest
        }
      }, "raw-post-body");
      writer.setDaemon(true);
      writer.start();
      return read(socket.getInputStream());
    } catch (IOException e) {
      return new Answer(-1, e.toString(), "");
    }
  }

  private static Answer read(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        all.write(buffer, 0, n);
      }
    } catch (IOException e) {
      if (all.size() == 0) {
        throw e;
      }
      // a reset after the answer: what arrived stands
    }
    String text = all.toString(StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    if (!text.startsWith("HTTP/1.1 ") || end < 0) {
      return new Answer(-1, text, "");
    }
    String head = text.substring(0, end);
    String body = text.substring(end + 4);
    if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
      body = unchunk(body);
    }
    return new Answer(Integer.parseInt(text.substring(9, 12)), head, body);
  }

  private static String unchunk(String chunked) {
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (at < chunked.length()) {
      int eol = chunked.indexOf("\r\n", at);
      if (eol < 0) {
        break;
      }
      int size = Integer.parseInt(chunked.substring(at, eol).split(";")[0].trim(), 16);
      if (size == 0) {
        break;
      }
      out.append(chunked, eol + 2, Math.min(chunked.length(), eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    return out.toString();
  }
}
