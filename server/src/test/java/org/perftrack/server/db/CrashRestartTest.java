package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.ServerProcess;

/** Issue 12 item 10: the first start after {@code kill -9} of the server succeeds, with the data of before. */
class CrashRestartTest {

  static final String TOKEN = "crash-token-0123456789";

  @TempDir
  Path dir;

  @Test
  void theFirstStartAfterKill9StopsTheOrphanPostmasterAndServesTheOldData() throws Exception {
    Path data = MigratedData.copyTo(dir.resolve("perftrack-data"));
    String run = json(run("cygwin", "1.5.24-2", "crash-box", result("write-64b", 48.2, 47.9, 48.4)));
    long orphan;
    try (ServerProcess first = ServerProcess.start(data, dir.resolve("first.log"), "--perftrack.bootstrap-token=" + TOKEN)) {
      assertThat(first.http().postJson("/api/v1/runs", run, TOKEN).status()).isEqualTo(201);
      orphan = OrphanPostmaster.running(data).orElseThrow().pid();
      first.kill();
    }
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive))
        .as("pg_ctl daemonises the postmaster: it outlives the killed server").contains(true);

    try (ServerProcess second = ServerProcess.start(data, dir.resolve("second.log"), "--perftrack.bootstrap-token=" + TOKEN)) {
      assertThat(second.http().postJson("/api/v1/runs", run, TOKEN).status()).as("the run is still there").isEqualTo(200);
      assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive).orElse(false)).isFalse();
      assertThat(second.log()).contains("left running in");
    }
  }
}
