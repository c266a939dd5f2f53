package org.perftrack.server.web;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpHeaders;

/**
 * A request answered without reading its whole body (a 401 for a missing token, a 403, a 413, a refused form)
 * gets no blocking read of the rest: what has already arrived is taken without waiting (so a client that sent
 * its small body at once keeps its connection), and when more is still to come the connection is closed
 * after the answer instead. Tomcat would otherwise read the rest on a worker thread after the answer, outside
 * every filter and limit, for as long as the client takes to send it: 200 anonymous posts sending one byte
 * every few seconds held every worker, and health did not answer (issue 26). Applies to every path.
 */
final class UnreadBodyValve extends ValveBase {

  /** The most bytes of an unread body taken from what has already arrived, before the connection is closed. */
  static final int TAKE_AT_MOST = 1 << 20;

  UnreadBodyValve() {
    super(true);
  }

  @Override
  public void invoke(Request request, Response response) throws IOException, ServletException {
    getNext().invoke(request, response);
    if (request.isAsync() || !hasBody(request) || fullyRead(request) || takeWhatArrived(request)) {
      return;
    }
    // the answer goes out whole, with its length and "Connection: close" (a chunked answer cut by the close
    // reached a client as a broken chunk when its tail and the reset crossed); then Tomcat closes instead of
    // reading on. Closing is an error state to Tomcat, which would otherwise replace an uncommitted answer with
    // an error page: it is marked reported.
    if (!response.isCommitted()) {
      response.setHeader(HttpHeaders.CONNECTION, "close");
    }
    response.finishResponse();
    request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
    response.getCoyoteResponse().setErrorReported();
  }

  private static boolean hasBody(Request request) {
    return request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
  }

  private static boolean fullyRead(Request request) {
    AtomicBoolean done = new AtomicBoolean();
    request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, done);
    return done.get();
  }

  /** Reads the body's bytes that are already here, never waiting for more; true when that was all of it. */
  private static boolean takeWhatArrived(Request request) {
    ServletInputStream in;
    try {
      in = request.getInputStream();
    } catch (IllegalStateException | IOException readThroughAReader) {
      return false;
    }
    byte[] buffer = new byte[8192];
    long taken = 0;
    try {
      while (taken < TAKE_AT_MOST && !fullyRead(request)) {
        request.getCoyoteRequest().action(ActionCode.AVAILABLE, Boolean.TRUE);
        if (request.getCoyoteRequest().getAvailable() <= 0) {
          return false;
        }
        int n = in.read(buffer);
        if (n < 0) {
          return true;
        }
        taken += n;
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
    return fullyRead(request);
  }
}
