package org.perftrack.server.web;

import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;
import org.springframework.web.util.UriUtils;

/**
 * Links built in Java (mails, CSV links). Every path segment and query value is encoded strictly:
 * {@code UriComponentsBuilder.encode()} leaves {@code +} as it is, which a server reads back as a space,
 * so a link to version {@code 1.1+a} silently named {@code 1.1 a}.
 */
public final class Links {

  private Links() {}

  /** {@code base + path} with {@code name, value} pairs as the query; null values are left out. */
  public static String to(String base, String path, String... nameValuePairs) {
    StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    for (int i = 0; i + 1 < nameValuePairs.length; i += 2) {
      if (nameValuePairs[i + 1] != null) {
        query.add(UriUtils.encode(nameValuePairs[i], StandardCharsets.UTF_8) + "="
            + UriUtils.encode(nameValuePairs[i + 1], StandardCharsets.UTF_8));
      }
    }
    return base + path + query;
  }

  /**
   * A value that may hold slashes (a branch {@code feature/x}) as path segments: each part encoded, the slashes
   * kept, since servers refuse an encoded slash in a path. A value with an empty, {@code .} or {@code ..} part
   * (uploads refuse them; an old name may hold one) is one segment, its slashes encoded: a browser would resolve
   * {@code ../../admin} to another page, even encoded; this link is refused instead.
   */
  public static String segments(String value) {
    StringJoiner path = new StringJoiner("/");
    for (String part : value.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        return segment(value);
      }
      path.add(segment(part));
    }
    return path.toString();
  }

  public static String segment(String value) {
    return UriUtils.encodePathSegment(value, StandardCharsets.UTF_8);
  }
}
