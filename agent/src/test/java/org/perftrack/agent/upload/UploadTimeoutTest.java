package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.wire.RunUpload;

/**
 * The answer to a run of a session that gives batchSize may take longer, by the session's size: the upload that
 * brings the session's last run is answered once the server has judged the whole session.
 */
class UploadTimeoutTest {

  @TempDir
  Path dir;

  private Request spooled(Integer batchSize) throws Exception {
    Spool spool = new Spool(dir, "http://lab:8080");
    RunUpload run = new RunUpload(UUID.randomUUID().toString(), "cygwin", "1.7.6-1",
        RunUpload.MachineInfo.named("xp-lab-01"), "posix", batchSize == null ? null : UUID.randomUUID().toString(),
        Instant.parse("2007-03-07T19:00:00Z"), Instant.parse("2007-03-07T19:20:00Z"), Map.of(),
        List.of(new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
            List.of(48.2, 47.9, 48.4))), List.of(), null, null, batchSize);
    return spool.request(spool.save(run));
  }

  @Test
  void aRunWithoutSessionWaitsTwoMinutes() throws Exception {
    assertThat(Uploader.readTimeoutMillis(spooled(null))).isEqualTo(120_000);
  }

  @Test
  void aSessionsRunWaitsHalfASecondMorePerRunOfTheSession() throws Exception {
    assertThat(Uploader.readTimeoutMillis(spooled(1))).isEqualTo(120_500);
    assertThat(Uploader.readTimeoutMillis(spooled(10))).isEqualTo(125_000);
    // the largest session the server takes: 1,000 runs, judged in about 70 s on a quiet server, 110 s on a busy one
    assertThat(Uploader.readTimeoutMillis(spooled(1000))).isEqualTo(620_000);
  }

  @Test
  void anotherToolsFileWaitsTwoMinutes() throws Exception {
    Spool spool = new Spool(dir, "http://lab:8080");
    Request file = spool.request(spool.saveForeign(UUID.randomUUID().toString(),
        Map.of("format", "gbench", "version", "0.9"),
        "{\"batchSize\": 1000}".getBytes(StandardCharsets.UTF_8)));
    assertThat(Uploader.readTimeoutMillis(file)).isEqualTo(120_000);
  }

  @Test
  void aBatchSizeThatIsNoNumberLeavesTwoMinutes() {
    Request bad = new Request("", "application/json",
        "{\"batchSize\": \"many\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(Uploader.readTimeoutMillis(bad)).isEqualTo(120_000);
    Request broken = new Request("", "application/json", "{".getBytes(StandardCharsets.UTF_8));
    assertThat(Uploader.readTimeoutMillis(broken)).isEqualTo(120_000);
  }
}
