package org.perftrack.server.pages;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.ViewResolver;
import org.springframework.web.servlet.support.RequestContextUtils;

/**
 * Renders a template fragment to a String with the page machinery (links, beans such as {@code @fmt}, dialects), so
 * that a part of a page that is the same for every reader can be kept and put into the page with {@code th:utext}.
 * What it renders must not depend on who asks (no forms, no sign-in state): it is shown to everyone.
 */
public final class Fragments {

  private Fragments() {}

  /** {@code view} (e.g. {@code "home/grid :: grid"}) rendered with {@code model} alone. */
  public static String render(ViewResolver views, String view, Map<String, ?> model, HttpServletRequest request,
      HttpServletResponse response) {
    Locale locale = RequestContextUtils.getLocale(request);
    StringWriter out = new StringWriter(16 * 1024);
    try {
      View resolved = views.resolveViewName(view, locale);
      if (resolved == null) {
        throw new IllegalStateException("no view " + view);
      }
      resolved.render(model, request, new Captured(response, new PrintWriter(out)));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("could not render " + view, e);
    }
    return out.toString();
  }

  /** The response as the view sees it: what it writes is kept, and it sets nothing on the real response. */
  private static final class Captured extends HttpServletResponseWrapper {
    private final PrintWriter writer;

    Captured(HttpServletResponse response, PrintWriter writer) {
      super(response);
      this.writer = writer;
    }

    @Override
    public PrintWriter getWriter() {
      return writer;
    }

    @Override
    public void setContentType(String type) {
    }

    @Override
    public void setCharacterEncoding(String charset) {
    }

    @Override
    public void setLocale(Locale locale) {
    }

    @Override
    public void setHeader(String name, String value) {
    }

    @Override
    public void addHeader(String name, String value) {
    }

    @Override
    public void flushBuffer() {
      writer.flush();
    }
  }
}
