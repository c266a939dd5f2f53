package org.perftrack.formats;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;

/**
 * Reads another tool's JSON file whole, then reads values out of it, naming the file and the JSON path of
 * anything that is missing or wrong.
 */
final class JsonInput {

  /**
   * Jackson 2, as in the agent (Jackson 3 needs Java 17). NaN and Infinity are accepted by the parser so that they
   * get a precise "non-finite" message, not "invalid JSON"; our own run files are read with it too (ISO instants).
   */
  static final JsonMapper MAPPER = JsonMapper.builder()
      .addModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private JsonInput() {}

  /** Whether a file holds only white space, without a String of it (a file may be tens of megabytes). */
  static boolean blank(byte[] content) {
    for (byte b : content) {
      if (b < 0) {
        return Text.blank(new String(content, StandardCharsets.UTF_8)); // other than ASCII: Unicode's white space
      }
      if (!(b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0b || b == '\f' || (b >= 0x1c && b <= 0x1f))) {
        return false;
      }
    }
    return true;
  }

  static JsonNode read(byte[] content, String source) throws FormatException {
    if (content == null || blank(content)) {
      throw new FormatException(source + ": the file is empty");
    }
    try {
      return MAPPER.readTree(content);
    } catch (JsonProcessingException e) {
      if (e instanceof JsonEOFException || String.valueOf(e.getOriginalMessage()).contains("end-of-input")) {
        throw new FormatException(source + ": truncated JSON: the file ends" + where(e) + " inside an unfinished value", e);
      }
      throw new FormatException(source + ": invalid JSON" + where(e) + ": " + scrub(e.getOriginalMessage()), e);
    } catch (IOException e) {
      throw new FormatException(source + ": unreadable: " + e.getMessage(), e);
    }
  }

  /** A finite number; JMH writes NaN as the string "NaN", Google Benchmark as a bare NaN. */
  static double number(JsonNode node, String source, String path) throws FormatException {
    if (node == null || node.isMissingNode() || node.isNull()) {
      throw new FormatException(source + ": " + path + " is missing");
    }
    double value;
    if (node.isNumber()) {
      value = node.doubleValue();
    } else if (node.isTextual() && node.textValue().matches("[+-]?(NaN|Infinity|inf|nan)")) {
      value = Double.NaN;
    } else {
      throw new FormatException(source + ": " + path + " is not a number: " + node);
    }
    if (!Double.isFinite(value)) {
      String shown = node.isNumber() ? String.valueOf(value) : node.toString();
      throw new FormatException(source + ": " + path + " is " + shown + ", not a finite number");
    }
    return value;
  }

  /** Whether the value is ±Infinity, as a bare number or as a string (as Google Benchmark writes a rate over 0 s). */
  static boolean isInfinite(JsonNode node) {
    if (node == null) {
      return false;
    }
    if (node.isNumber()) {
      return Double.isInfinite(node.doubleValue());
    }
    return node.isTextual() && node.textValue().matches("[+-]?(Infinity|inf)");
  }

  static List<Double> numbers(JsonNode array, String source, String path) throws FormatException {
    requireArray(array, source, path);
    List<Double> values = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      values.add(number(array.get(i), source, path + "[" + i + "]"));
    }
    return values;
  }

  static String text(JsonNode node, String source, String path) throws FormatException {
    if (node == null || !node.isValueNode() || node.isNull() || Text.blank(node.asText())) {
      throw new FormatException(source + ": " + path + " is missing or not a text");
    }
    return node.asText();
  }

  /** The names of an object's fields, in the file's order. */
  static Iterable<String> names(JsonNode object) {
    return object::fieldNames;
  }

  static JsonNode requireArray(JsonNode node, String source, String path) throws FormatException {
    if (node == null || !node.isArray()) {
      throw new FormatException(source + ": " + path + " is missing or not an array");
    }
    return node;
  }

  static JsonNode requireObject(JsonNode node, String source, String path) throws FormatException {
    if (node == null || !node.isObject()) {
      throw new FormatException(source + ": " + path + " is missing or not an object");
    }
    return node;
  }

  /**
   * A date-time from the file, or null when it has none or one we cannot place in time; a date only
   * decorates the run, so an odd one is not worth rejecting the file for.
   */
  static Instant instant(JsonNode node, boolean noOffsetMeansUtc) {
    if (node == null || !node.isTextual()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(node.textValue()).toInstant();
    } catch (DateTimeParseException e) {
      if (!noOffsetMeansUtc) {
        return null;
      }
    }
    try {
      // Google Benchmark before 1.5 writes "2019-11-29 21:26:59"
      return LocalDateTime.parse(node.textValue().replaceFirst(" ", "T")).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String where(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    return at == null || at.getLineNr() < 0 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
  }

  private static final java.util.regex.Pattern QUALIFIED =
      java.util.regex.Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][\\w$]*)");
  private static final java.util.regex.Pattern SOURCE =
      java.util.regex.Pattern.compile("\\s*\\((?:start marker )?at \\[Source.*|\\s*at \\[Source.*");

  /**
   * The parser's message in the file's terms: first line, without Java type names ({@code java.lang.Double},
   * nested classes), quoting backticks or the parser's source description; at most 300 characters.
   */
  static String scrub(String message) {
    String line = firstLine(message);
    line = SOURCE.matcher(line).replaceAll("");
    line = QUALIFIED.matcher(line).replaceAll("$1").replace("`", "").replace("JsonToken.", "");
    int dollar;
    while ((dollar = line.indexOf('$')) > 0 && Character.isJavaIdentifierPart(line.charAt(dollar - 1))) {
      int start = dollar;
      while (start > 0 && Character.isJavaIdentifierPart(line.charAt(start - 1))) {
        start--;
      }
      line = line.substring(0, start) + line.substring(dollar + 1);
    }
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
