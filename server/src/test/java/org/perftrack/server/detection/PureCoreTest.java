package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The statistics must stay plain Java: testable without Spring or a database, reusable by the evaluation. */
class PureCoreTest {

  static final List<String> CORE = List.of("Detector", "LocalScan", "StepScan", "StepChecks", "NoiseModel",
      "Levels", "VersionLevel", "Reconciler", "WithdrawalReason", "VersionComparer", "VersionPoint", "SeriesHistory",
      "Step", "Decision", "DetectionResult", "DetectionSettings", "PairedEvidence", "BatchRun");

  static final List<String> STATS = List.of("Robust", "PairedRounds", "RandomEffects", "RankEvidence");

  @Test
  void coreClassesImportNoSpringAndNoJdbc() throws IOException {
    Path dir = Path.of("src/main/java/org/perftrack/server/detection");
    for (String name : CORE) {
      String source = Files.readString(dir.resolve(name + ".java"));
      assertThat(source).as(name).doesNotContain("import org.springframework").doesNotContain("import java.sql");
    }
    Path stats = Path.of("src/main/java/org/perftrack/server/stats");
    for (String name : STATS) {
      String source = Files.readString(stats.resolve(name + ".java"));
      assertThat(source).as(name).doesNotContain("import org.springframework").doesNotContain("import java.sql")
          .doesNotContain("import org.perftrack");
    }
  }
}
