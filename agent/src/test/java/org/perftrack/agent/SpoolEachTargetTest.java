package org.perftrack.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.suite.Suite;
import org.perftrack.agent.suite.SuiteSession;
import org.perftrack.agent.upload.Spool;

/** Each target's run is in the spool as soon as it is measured, before the next target's run is made. */
class SpoolEachTargetTest {

  @TempDir
  Path home;

  @Test
  void theFirstTargetsRunIsSpooledBeforeTheSecondIsHandedOver() throws Exception {
    Spool spool = new Spool(home.resolve("spool"), "http://lab:8080");
    List<Integer> spooledWhenHandedOver = new ArrayList<>();
    List<TargetConfig> targets = List.of(
        new TargetConfig("a", "1.0", null, List.of("/bin/bash", "-c"), Map.of()),
        new TargetConfig("b", "2.0", null, List.of("/bin/bash", "-c"), Map.of()));
    RunPlan plan = new RunPlan(null, null, "linux", "ci-01", 2, 0.01,
        Suite.select(List.of("null-call")), targets, spool.dir(), home.resolve("work"), false);

    new Measurer(new ShellRunner(), false, new PrintWriter(new StringWriter()))
        .measure(plan, new SuiteSession.Settings(2, 0.01, Duration.ofSeconds(60)), run -> {
          spooledWhenHandedOver.add(spool.pending().size());
          spool.save(run);
        });

    assertThat(spooledWhenHandedOver).containsExactly(0, 1);
    assertThat(spool.pending()).hasSize(2);
  }
}
