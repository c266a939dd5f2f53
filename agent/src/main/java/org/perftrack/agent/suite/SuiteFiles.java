package org.perftrack.agent.suite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Copies the suite's sources and scripts out of the agent jar into a target's work directory. */
public final class SuiteFiles {

  private SuiteFiles() {}

  public static void extract(Path workDir) throws IOException {
    Files.createDirectories(workDir);
    for (String file : Suite.FILES) {
      try (InputStream in = SuiteFiles.class.getClassLoader().getResourceAsStream(Suite.RESOURCE_DIR + file)) {
        if (in == null) {
          throw new UncheckedIOException(new IOException("the agent jar lacks " + Suite.RESOURCE_DIR + file));
        }
        Files.copy(in, workDir.resolve(file), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
