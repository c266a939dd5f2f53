package org.perftrack.server.web;

import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Says what is wrong with a JSON body in the caller's terms: what was expected and what was found, never
 * a Java or Jackson type name (those tell an attacker what runs here and tell a user nothing).
 */
public final class JsonProblems {

  /** Qualified names (java.lang.Double, tools.jackson…, org.perftrack…), nested classes, quoted types. */
  private static final Pattern QUALIFIED = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][\\w$]*)");
  private static final Pattern LOCATION = Pattern.compile("\\s*\\((?:start marker )?at \\[Source.*|\\s*at \\[Source.*");

  private JsonProblems() {}

  public static String describe(JacksonException e) {
    return describe(e, where(e.getLocation()));
  }

  /**
   * The same for one line of an import, read alone: where is its column only ("(column 2)"), since the import names
   * the line itself, and "line 1" of the line would contradict it.
   */
  public static String describeInLine(JacksonException e) {
    TokenStreamLocation location = e.getLocation();
    return describe(e, location == null || location.getColumnNr() < 1 ? ""
        : " (column " + location.getColumnNr() + ")");
  }

  private static String describe(JacksonException e, String where) {
    if (e instanceof UnrecognizedPropertyException u) {
      return "is not a known field" + where;
    }
    if (e instanceof MismatchedInputException m) {
      String found = m instanceof InvalidFormatException f && f.getValue() != null
          ? "\"" + shorten(String.valueOf(f.getValue())) + "\"" : found(m.getCurrentToken(), m.getOriginalMessage());
      return "must be " + expected(m.getTargetType()) + (found.isEmpty() ? "" : ", found " + found) + where;
    }
    if (e instanceof StreamReadException) {
      return "is not valid JSON: " + scrub(e.getOriginalMessage()) + where;
    }
    return "cannot be read" + where;
  }

  /** Removes type names and parser internals from a message; keeps the first line, at most 300 characters. */
  static String scrub(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    String line = nl < 0 ? message : message.substring(0, nl);
    line = LOCATION.matcher(line).replaceAll("");
    line = QUALIFIED.matcher(line).replaceAll("$1").replace("`", "").replace("JsonToken.", "");
    return shorten(line);
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "another kind of value";
    }
    if (type == Double.class || type == double.class || type == Float.class || type == float.class
        || type == java.math.BigDecimal.class) {
      return "a number";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class
        || type == Short.class || type == short.class || type == java.math.BigInteger.class) {
      return "a whole number";
    }
    if (type == String.class || type == java.util.UUID.class) {
      return "a string";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (Temporal.class.isAssignableFrom(type)) {
      return "a date and time like \"2007-03-07T19:00:00Z\"";
    }
    if (type.isEnum()) {
      StringBuilder sb = new StringBuilder("one of");
      for (Object c : type.getEnumConstants()) {
        sb.append(' ').append(c.toString().toLowerCase(Locale.ROOT));
      }
      return sb.toString();
    }
    if (type.isArray() || Collection.class.isAssignableFrom(type)) {
      return "an array";
    }
    if (Map.class.isAssignableFrom(type) || !type.isPrimitive()) {
      return "an object";
    }
    return "another kind of value";
  }

  private static final Pattern FROM = Pattern.compile("from (\\w+) value");

  private static String found(JsonToken token, String message) {
    if (token != null) {
      switch (token) {
        case START_OBJECT: return "an object";
        case START_ARRAY: return "an array";
        case VALUE_STRING: return "a string";
        case VALUE_NUMBER_INT: return "a whole number";
        case VALUE_NUMBER_FLOAT: return "a number";
        case VALUE_TRUE: case VALUE_FALSE: return "true or false";
        case VALUE_NULL: return "null";
        default: break;
      }
    }
    Matcher m = FROM.matcher(message == null ? "" : message);
    return m.find() ? "a value of kind " + m.group(1).toLowerCase(Locale.ROOT) : "";
  }

  private static String where(TokenStreamLocation location) {
    if (location == null || location.getLineNr() < 1) {
      return "";
    }
    return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  private static String shorten(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "…" : s;
  }
}
