package org.perftrack.server.ingest;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.wire.FormatGuess;
import org.perftrack.wire.FormatNames;
import org.perftrack.wire.RunUpload;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * {@code POST /api/v1/runs} without {@code ?format=} of another tool's file would be read as a run and answered
 * "missing id, product, version…". Its start is looked at first, and such a file is a 400 that names the tool
 * and the query to add: "this looks like a Google Benchmark file: add ?format=gbench&product=…".
 */
@ControllerAdvice(assignableTypes = RunUploadApi.class)
class ToolFileAdvice extends RequestBodyAdviceAdapter {

  @Override
  public boolean supports(MethodParameter parameter, Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) {
    return targetType == RunUpload.class;
  }

  @Override
  public HttpInputMessage beforeBodyRead(HttpInputMessage message, MethodParameter parameter, Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) throws IOException {
    BufferedInputStream body = new BufferedInputStream(message.getBody(), 64 * 1024);
    body.mark(PREFIX);
    byte[] start = body.readNBytes(PREFIX);
    body.reset();
    String tool = FormatGuess.guess(start);
    if (tool != null && !tool.equals(FormatNames.PERFTRACK)) {
      throw new InvalidInput("format", FormatGuess.addFormat(tool));
    }
    return new Peeked(body, message.getHeaders());
  }

  /** What the tools' files are told by; as much as the sniffer looks at. */
  static final int PREFIX = 1 << 20;

  private record Peeked(InputStream getBody, HttpHeaders getHeaders) implements HttpInputMessage {}
}
