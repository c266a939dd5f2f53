package org.perftrack.server.problems;

import java.util.ArrayList;
import java.util.List;
import org.perftrack.server.problems.InvalidInput.FieldProblem;

/**
 * The rules every name that agents send must follow (they end up in URLs, mails and pages). Letters of
 * every script are welcome; refused are control characters, lone UTF-16 surrogates (not text: PostgreSQL
 * would store {@code ?}) and, in names, invisible formatting characters (Unicode category Cf: zero-width
 * space and joiners, bidirectional marks, embeddings, overrides and isolates, the byte order mark, the
 * soft hyphen), which make two names look alike or display another name than the stored one, noncharacters
 * (U+FFFE, U+FFFF: a JUnit report holding one is not well-formed XML, and CI drops it), and spaces at
 * either end ({@code " 1.5.25-1"} would be a second version beside {@code "1.5.25-1"}). Names are refused
 * rather than cleaned, so that a name is stored exactly as it was sent. Uploads and the lab share these rules.
 */
public final class Names {

  public static final int MAX_NAME = 128;

  /**
   * Benchmark names are longer: JMH class + {@code @Param} names and hyperfine commands run to hundreds of
   * characters and a CI job cannot shorten them. The byte bound keeps a name inside one B-tree index entry
   * (PostgreSQL's limit is about 2,700 bytes; the series key also holds the metric).
   */
  public static final int MAX_BENCHMARK = 1000;
  public static final int MAX_BENCHMARK_BYTES = 2000;

  private Names() {}

  /** Adds a problem for {@code field} when {@code value} is not a valid name; true when it is valid. */
  public static boolean check(String field, String value, List<FieldProblem> problems) {
    if (value == null) {
      problems.add(new FieldProblem(field, "is required"));
      return false;
    }
    return checkName(field, value, MAX_NAME, problems);
  }

  /** Throws {@link InvalidInput} naming {@code field} when {@code value} is not a valid name. */
  public static String require(String field, String value) {
    return require(field, value, Names::check);
  }

  private interface Rule {
    boolean check(String field, String value, List<FieldProblem> problems);
  }

  private static String require(String field, String value, Rule rule) {
    List<FieldProblem> problems = new ArrayList<>(1);
    if (!rule.check(field, value, problems)) {
      throw new InvalidInput(problems);
    }
    return value;
  }

  /**
   * A product, machine or version name, which pages and curation put in a path ({@code /products/cygwin/…}): a
   * valid name without {@code / \\ ; %} (the firewall refuses them in a path, so such a name could be neither opened
   * nor removed) and not {@code .} or {@code ..} (a browser resolves them away).
   */
  public static boolean checkSegment(String field, String value, List<FieldProblem> problems) {
    return check(field, value, problems) && pathSafe(field, value, PATH_UNSAFE, problems);
  }

  /** {@link #checkSegment} or {@link InvalidInput}. */
  public static String requireSegment(String field, String value) {
    return require(field, value, Names::checkSegment);
  }

  /**
   * A branch name keeps its slashes ({@code feature/fast-copy}, as CI names branches; its link carries them as
   * path segments) but none of its segments may be {@code .} or {@code ..} or empty, nor hold {@code \\ ; %}.
   */
  public static boolean checkBranch(String field, String value, List<FieldProblem> problems) {
    if (!check(field, value, problems) || !pathSafe(field, value, BRANCH_UNSAFE, problems)) {
      return false;
    }
    for (String segment : value.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        problems.add(new FieldProblem(field, "must not have an empty, '.' or '..' part between slashes (a link to"
            + " it would lead elsewhere)"));
        return false;
      }
    }
    return true;
  }

  private static final String PATH_UNSAFE = "/\\;%";
  private static final String BRANCH_UNSAFE = "\\;%";

  private static boolean pathSafe(String field, String value, String unsafe, List<FieldProblem> problems) {
    if (value.equals(".") || value.equals("..")) {
      problems.add(new FieldProblem(field, "must not be '" + value + "' (a link to it would lead elsewhere)"));
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      if (unsafe.indexOf(value.charAt(i)) >= 0) {
        problems.add(new FieldProblem(field, "must not contain '" + value.charAt(i) + "' (found at " + i + "): the name"
            + " is part of its pages' and curation's paths, where " + String.join(" ", unsafe.split(""))
            + " are refused"));
        return false;
      }
    }
    return true;
  }

  /** A short name that is not required (a unit): at most {@code max} characters, no invisible characters. */
  public static boolean checkName(String field, String value, int max, List<FieldProblem> problems) {
    return checkText(field, value, max, true, problems) && visible(field, value, problems)
        && noEdgeSpace(field, value, problems);
  }

  /** A space at either end makes a look-alike of the name without it. */
  private static boolean noEdgeSpace(String field, String value, List<FieldProblem> problems) {
    int first = value.codePointAt(0);
    int last = value.codePointBefore(value.length());
    if (space(first) || space(last)) {
      int at = space(first) ? 0 : value.length() - Character.charCount(last);
      problems.add(new FieldProblem(field, "must not begin or end with a space (found " + describe(value.codePointAt(at))
          + " at " + at + "); send the name without it"));
      return false;
    }
    return true;
  }

  private static boolean space(int cp) {
    return Character.isWhitespace(cp) || Character.isSpaceChar(cp);
  }

  /** No formatting character (Cf): a name must read as it is stored. */
  private static boolean visible(String field, String value, List<FieldProblem> problems) {
    for (int i = 0; i < value.length(); ) {
      int cp = value.codePointAt(i);
      if (Character.getType(cp) == Character.FORMAT) {
        problems.add(new FieldProblem(field, "must not contain invisible or bidirectional formatting characters"
            + " (found " + describe(cp) + " at " + i + "); send the name without it"));
        return false;
      }
      i += Character.charCount(cp);
    }
    return true;
  }

  /**
   * A count as the project writes numbers (wire.Quantities, which this package cannot use): digits grouped by
   * thousands from 10,000 ("has 12,000"; "has 129", "at most 1000"). A name sent may be far longer than its limit.
   */
  static String count(long n) {
    return Math.abs(n) >= 10_000 ? String.format(java.util.Locale.ROOT, "%,d", n) : Long.toString(n);
  }

  private static String describe(int cp) {
    String name = Character.getName(cp);
    return String.format(java.util.Locale.ROOT, "U+%04X", cp) + (name == null ? "" : " " + name);
  }

  /** A benchmark name: required, at most {@link #MAX_BENCHMARK} characters, no control characters. */
  public static boolean checkBenchmark(String field, String value, List<FieldProblem> problems) {
    if (value == null) {
      problems.add(new FieldProblem(field, "is required"));
      return false;
    }
    if (!checkName(field, value, MAX_BENCHMARK, problems)) {
      return false;
    }
    int bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    if (bytes > MAX_BENCHMARK_BYTES) {
      problems.add(new FieldProblem(field, "must be at most " + count(MAX_BENCHMARK_BYTES) + " bytes in UTF-8 (has "
          + count(bytes) + ")"));
      return false;
    }
    return true;
  }

  /** Free text (OS name, attribute value): optional, bounded, no control characters. */
  public static boolean checkText(String field, String value, int max, boolean required, List<FieldProblem> problems) {
    if (value == null) {
      if (required) {
        problems.add(new FieldProblem(field, "is required"));
      }
      return !required;
    }
    if (value.isBlank()) {
      problems.add(new FieldProblem(field, "must not be empty"));
      return false;
    }
    if (value.length() > max) {
      problems.add(new FieldProblem(field, "must be at most " + count(max) + " characters (has " + count(value.length())
          + ")"));
      return false;
    }
    String unreadable = unreadableCharacter(value);
    if (unreadable != null) {
      problems.add(new FieldProblem(field, unreadable));
      return false;
    }
    return true;
  }

  /** Why {@code value} is not text to keep (its first control character, lone surrogate or noncharacter), or null. */
  private static String unreadableCharacter(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isISOControl(c)) {
        return "must not contain control characters (found U+" + String.format("%04X", (int) c) + " at " + i + ")";
      }
      boolean paired = Character.isHighSurrogate(c) && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1));
      if (Character.isSurrogate(c) && !paired) {
        return "must be valid Unicode text (found a lone surrogate U+" + String.format("%04X", (int) c) + " at " + i
            + ", as sent by the JSON escape \\u" + String.format("%04x", (int) c) + ")";
      }
      int cp = value.codePointAt(i);
      if (nonCharacter(cp)) {
        return "must not contain Unicode noncharacters (found " + describe(cp) + " at " + i
            + "): XML, and so a JUnit report, cannot hold them";
      }
      i += Character.charCount(cp) - 1;
    }
    return null;
  }

  /** U+FDD0..U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF, U+1FFFE, …): never text. */
  private static boolean nonCharacter(int cp) {
    return cp >= 0xFDD0 && cp <= 0xFDEF || (cp & 0xFFFE) == 0xFFFE;
  }
}
