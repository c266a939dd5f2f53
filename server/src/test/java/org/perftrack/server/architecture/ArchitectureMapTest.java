package org.perftrack.server.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md cannot drift from the code: every class it names in {@code code} exists in a module's main
 * sources or the server's tests (and {@code Class.member} names a member of it), every arrow {@code A → B} of a flow is a class A whose
 * source names B, and its package table lists exactly the server's packages, each with a package-info.
 */
class ArchitectureMapTest {

  static final Path ROOT = Path.of("..");
  static final Path MAP = ROOT.resolve("docs/architecture.md");
  static final Path SERVER = ROOT.resolve("server/src/main/java/org/perftrack/server");
  static final List<String> MODULES = List.of("server", "agent", "wire", "formats");

  /** A class, or a class and a member: {@code Summaries}, {@code Summaries.afterJudging}, {@code Regression.Status}. */
  static final Pattern CLASS_REF = Pattern.compile("`([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\\.([A-Za-z][A-Za-z0-9]*))?`");
  static final Pattern TYPE_DECLARATION = Pattern.compile("\\b(?:class|record|enum|interface) ([A-Z][A-Za-z0-9]*)");

  /** Simple type name: the source of every file that declares a type of that name (top level or nested). */
  static final Map<String, List<String>> SOURCES = new HashMap<>();
  static String map;

  @BeforeAll
  static void read() throws IOException {
    map = Files.readString(MAP);
    for (String sources : Stream.concat(MODULES.stream().map(m -> m + "/src/main/java"),
        Stream.of("server/src/test/java")).toList()) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(sources))) {
        files.filter(p -> p.toString().endsWith(".java")).forEach(p -> {
          String text = read(p);
          Matcher m = TYPE_DECLARATION.matcher(text);
          while (m.find()) {
            SOURCES.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(text);
          }
        });
      }
    }
  }

  @Test
  void everyClassTheMapNamesExists() {
    List<String> missing = new ArrayList<>();
    Matcher m = CLASS_REF.matcher(map);
    int named = 0;
    while (m.find()) {
      named++;
      String type = m.group(1);
      String member = m.group(2);
      if (!SOURCES.containsKey(type)) {
        missing.add(type);
      } else if (member != null && SOURCES.get(type).stream()
          .noneMatch(src -> Pattern.compile("\\b" + member + "\\b").matcher(src).find())) {
        missing.add(type + "." + member);
      }
    }
    assertThat(named).as("classes the map names").isGreaterThan(80);
    assertThat(missing).as("named in docs/architecture.md but not in the code: say where it went").isEmpty();
  }

  /** In each numbered step of a flow, {@code `A` … → … `B`}: A's source names B (⇢ is HTTP: not checked). */
  @Test
  void everyArrowOfAFlowIsACallTheCodeMakes() {
    List<String> steps = new ArrayList<>();
    StringBuilder step = null;
    for (String line : map.split("\n")) {
      if (line.matches("\\d+\\. .*") || line.startsWith("A session")) {
        if (step != null) {
          steps.add(step.toString());
        }
        step = new StringBuilder(line);
      } else if (step != null && !line.isBlank() && !line.startsWith("#") && !line.startsWith("|")
          && !line.startsWith("**")) {
        step.append(' ').append(line.strip());
      } else if (step != null) {
        steps.add(step.toString());
        step = null;
      }
    }
    if (step != null) {
      steps.add(step.toString());
    }
    List<String> arrows = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (String s : steps) {
      String[] parts = s.split("(?=[→⇢])");
      for (int i = 1; i < parts.length; i++) {
        if (!parts[i].startsWith("→")) {
          continue;
        }
        String from = last(parts[i - 1]);
        String to = first(parts[i]);
        if (from == null || to == null) {
          continue;
        }
        arrows.add(from + " → " + to);
        if (SOURCES.getOrDefault(from, List.of()).stream()
            .noneMatch(src -> Pattern.compile("\\b" + to + "\\b").matcher(src).find())) {
          wrong.add(from + " → " + to);
        }
      }
    }
    assertThat(arrows).as("the flows' arrows").hasSizeGreaterThan(25);
    assertThat(wrong).as("arrows of docs/architecture.md whose first class never names the second").isEmpty();
  }

  @Test
  void thePackageTableListsEveryServerPackageAndEachHasAPackageInfo() throws IOException {
    Set<String> packages = new TreeSet<>();
    try (Stream<Path> dirs = Files.list(SERVER)) {
      dirs.filter(Files::isDirectory).forEach(d -> packages.add(d.getFileName().toString()));
    }
    Set<String> rows = new TreeSet<>();
    String table = map.substring(map.indexOf("## The server's packages"), map.indexOf("## Three flows"));
    Matcher row = Pattern.compile("(?m)^\\| `([a-z]+)` \\|").matcher(table);
    while (row.find()) {
      rows.add(row.group(1));
    }
    assertThat(rows).as("the packages docs/architecture.md describes").isEqualTo(packages);
    assertThat(packages.stream().filter(p -> !Files.exists(SERVER.resolve(p).resolve("package-info.java"))))
        .as("server packages without a package-info.java").isEmpty();
  }

  private static String first(String text) {
    Matcher m = CLASS_REF.matcher(text);
    return m.find() ? m.group(1) : null;
  }

  private static String last(String text) {
    Matcher m = CLASS_REF.matcher(text);
    String found = null;
    while (m.find()) {
      found = m.group(1);
    }
    return found;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
