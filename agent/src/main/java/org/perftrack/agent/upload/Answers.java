package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reading the server's answers: their text, whether they are perftrack's problem detail, and what that says. */
final class Answers {

  private Answers() {}

  /** An answer's body as text (UTF-8); none is "". */
  static String text(InputStream in) throws IOException {
    if (in == null) {
      return "";
    }
    try (InputStream stream = in) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int n; (n = stream.read(buffer)) > 0; ) {
        bytes.write(buffer, 0, n);
      }
      return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    }
  }

  /** The problem's {@code detail} (else its title), or the answer itself on one line when it is no problem detail. */
  static String detail(String problem) {
    try {
      JsonNode node = WireJson.MAPPER.readTree(problem == null ? "" : problem);
      if (node != null && node.isObject()) {
        for (String field : new String[] {"detail", "title"}) {
          if (node.hasNonNull(field) && !node.get(field).asText().trim().isEmpty()) {
            return oneLine(node.get(field).asText());
          }
        }
      }
    } catch (IOException e) {
      // not JSON: shown as it came
    }
    String text = oneLine(problem);
    return text.isEmpty() ? "(the server gave no reason)" : text;
  }

  private static String oneLine(String text) {
    String s = text == null ? "" : text.replaceAll("\\s+", " ").trim();
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }

  /** True for {@code application/problem+json} (any parameters, any case): an answer of the perftrack server. */
  static boolean isProblem(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
    return type.equalsIgnoreCase("application/problem+json");
  }
}
