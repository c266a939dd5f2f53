package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.wire.RunUpload;

/** A session's runs leave the spool in version order, whatever order its targets were listed (and spooled) in. */
class SpoolOrderTest {

  @TempDir
  Path dir;

  private long clock = 1_000_000;

  private Path spool(Spool spool, String version, String batch) throws Exception {
    Path saved = spool.save(new RunUpload(UUID.randomUUID().toString(), "cygwin", version,
        RunUpload.MachineInfo.named("xp-lab-01"), "posix", batch, Instant.parse("2007-03-07T19:00:00Z"),
        Instant.parse("2007-03-07T19:20:00Z"), Map.of(),
        List.of(new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
            List.of(48.2, 47.9, 48.4))), List.of()));
    Files.setLastModifiedTime(saved, FileTime.fromMillis(clock += 1000)); // spooled one after the other
    return saved;
  }

  private static List<String> versions(List<Path> entries) throws Exception {
    List<String> versions = new ArrayList<>();
    for (Path p : entries) {
      versions.add(WireJson.MAPPER.readTree(p.toFile()).get("version").asText());
    }
    return versions;
  }

  @Test
  void aSessionsRunsGoInVersionOrderInThePlacesTheSessionHolds() throws Exception {
    Spool spool = new Spool(dir, "http://lab:8080");
    String session = UUID.randomUUID().toString();
    String later = UUID.randomUUID().toString();
    spool(spool, "1.5.24-2", null);
    spool(spool, "1.7.6-1", session);
    spool(spool, "1.7.10-1", session);
    spool(spool, "1.7.2-1", session);
    Path foreign = spool.saveForeign(UUID.randomUUID().toString(), Map.of("format", "gbench", "version", "0.9"),
        "{}".getBytes());
    Files.setLastModifiedTime(foreign, FileTime.fromMillis(clock += 1000));
    spool(spool, "1.7.5-1", session);
    spool(spool, "2.0", later);
    spool(spool, "1.9", later);

    List<Path> pending = spool.pending();

    assertThat(pending.get(4)).isEqualTo(foreign);
    pending.remove(4);
    assertThat(versions(pending)).containsExactly("1.5.24-2", "1.7.2-1", "1.7.5-1", "1.7.6-1", "1.7.10-1",
        "1.9", "2.0");
  }
}
