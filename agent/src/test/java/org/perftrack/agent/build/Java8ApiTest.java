package org.perftrack.agent.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check of {@link PackagedJarJava8Test} finds what a class-file version misses: a dependency built for
 * Java 8 class files against a newer JDK, calling {@code ByteBuffer.flip()} with Java 9's covariant return
 * (a {@code NoSuchMethodError} on Java 8), and a call of an API Java 8 does not have at all.
 */
class Java8ApiTest {

  @TempDir
  Path dir;

  @Test
  void aClassFileOfVersion52CallingJava9sFlipIsFound() throws Exception {
    Path jar = jarOf("Flips", """
        public class Flips {
          public static void f() {
            java.nio.ByteBuffer.allocate(1).flip();
          }
        }
        """);

    assertThat(Java8Api.gaps(jar)).singleElement().asString()
        .contains("Undefined reference: java.nio.ByteBuffer java.nio.ByteBuffer.flip()");
  }

  @Test
  void aJava9OnlyApiIsFoundAndJava8sOwnApiIsNot() throws Exception {
    Path jar = jarOf("Lists", """
        public class Lists {
          public static Object java9() {
            return java.util.List.of(1);
          }
          public static Object java8() {
            return java.util.Collections.singletonList(1);
          }
        }
        """);

    assertThat(Java8Api.gaps(jar)).singleElement().asString().contains("java.util.List.of(Object)");
  }

  /** Compiled as a careless build does: {@code -source 8 -target 8} against this JDK's library. */
  private Path jarOf(String name, String source) throws Exception {
    Path java = Files.writeString(dir.resolve(name + ".java"), source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int code = javac.run(null, null, null, "-source", "8", "-target", "8", "-Xlint:-options", "-d", dir.toString(),
        java.toString());
    assertThat(code).isZero();
    Path jar = dir.resolve(name + ".jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry(name + ".class"));
      Files.copy(dir.resolve(name + ".class"), (OutputStream) out);
      out.closeEntry();
    }
    return jar;
  }
}
