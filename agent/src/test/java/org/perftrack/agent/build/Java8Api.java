package org.perftrack.agent.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.codehaus.mojo.animal_sniffer.ClassListBuilder;
import org.codehaus.mojo.animal_sniffer.SignatureChecker;
import org.codehaus.mojo.animal_sniffer.logging.Logger;

/**
 * Which calls in a jar Java 8's API does not have, by animal-sniffer's Java 8 signature (the pom passes its path as
 * {@code java8.signature}). Classes of the jar itself are known; multi-release overrides are not checked (Java 8
 * never loads them).
 */
final class Java8Api {

  private Java8Api() {}

  static List<String> gaps(Path jar) throws IOException {
    Path signature = Path.of(System.getProperty("java8.signature", ""));
    assertThat(signature).as("Java 8 signature (system property java8.signature, set by the pom)").isRegularFile();
    List<String> errors = new ArrayList<>();
    Logger log = new Collecting(errors);
    ClassListBuilder own = new ClassListBuilder(log);
    own.process(jar.toFile());
    SignatureChecker checker;
    try (InputStream in = Files.newInputStream(signature)) {
      checker = new SignatureChecker(in, own.getPackages(), log);
    }
    checker.setSourcePath(List.of());
    checker.setAnnotationTypes(List.of());
    checker.process(jar.toFile());
    if (checker.isSignatureBroken() && errors.isEmpty()) {
      errors.add("animal-sniffer found the signature broken without saying where");
    }
    return errors;
  }

  /** animal-sniffer's findings as a list; its debug and info chatter dropped. */
  private record Collecting(List<String> errors) implements Logger {
    @Override public void info(String message) {}
    @Override public void info(String message, Throwable t) {}
    @Override public void debug(String message) {}
    @Override public void debug(String message, Throwable t) {}
    @Override public void warn(String message) {}
    @Override public void warn(String message, Throwable t) {}

    @Override public void error(String message) {
      errors.add(message);
    }

    @Override public void error(String message, Throwable t) {
      errors.add(message + ": " + t);
    }
  }
}
