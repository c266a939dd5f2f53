package org.perftrack.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The wire model the agent ships starts on a Java 8 runtime (Windows XP / Server 2003): every class in it is class-file
 * version 52 or lower, except multi-release overrides under {@code META-INF/versions/N}, which a Java 8
 * runtime never loads (each may be at most the version of Java N). Runs in the package phase, after the
 * jar plugin built the jar; the pom passes the jar's path.
 */
class WireJarJava8Test {

  private static final int JAVA_8 = 52;
  private static final Pattern VERSIONED = Pattern.compile("META-INF/versions/(\\d+)/.*");

  @Test
  void everyClassInTheWireJarRunsOnJava8() throws IOException {
    String jar = System.getProperty("perftrack.jar");
    assertThat(jar).as("system property perftrack.jar (set by the pom's packaged-jar execution)").isNotBlank();
    Path path = Path.of(jar);
    assertThat(path).exists();

    List<String> tooNew = new ArrayList<>();
    int classes = 0;
    try (JarFile file = new JarFile(path.toFile())) {
      for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
        JarEntry entry = entries.nextElement();
        if (!entry.getName().endsWith(".class")) {
          continue;
        }
        classes++;
        Matcher versioned = VERSIONED.matcher(entry.getName());
        int allowed = versioned.matches() ? 44 + Integer.parseInt(versioned.group(1)) : JAVA_8;
        int major = majorVersion(file, entry);
        if (major > allowed) {
          tooNew.add(entry.getName() + " (class version " + major + ", at most " + allowed + ")");
        }
      }
    }
    assertThat(classes).as("classes in " + path).isGreaterThanOrEqualTo(5);
    assertThat(tooNew).as("classes a Java 8 runtime cannot load in " + path).isEmpty();
  }

  private static int majorVersion(JarFile file, JarEntry entry) throws IOException {
    try (InputStream in = file.getInputStream(entry); DataInputStream data = new DataInputStream(in)) {
      assertThat(data.readInt()).as(entry.getName() + " magic").isEqualTo(0xCAFEBABE);
      data.readUnsignedShort();
      return data.readUnsignedShort();
    }
  }
}
