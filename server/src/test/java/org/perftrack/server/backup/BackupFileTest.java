package org.perftrack.server.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

/**
 * A backup holds password and token hashes and subscribers' addresses: its file is its owner's alone (0600), and a
 * {@code FILE.partial} or link that another local user planted beside it is neither written through nor reused.
 */
class BackupFileTest extends IntegrationTest {

  @TempDir
  Path dir;

  @TempDir
  Path logs;

  @Autowired
  Environment environment;

  @Test
  void theBackupIsReadableByItsOwnerOnlyAndIgnoresAPlantedPartialFileAndLink() throws Exception {
    Path file = dir.resolve("perftrack.backup");
    Path victim = Files.writeString(dir.resolve("victim"), "someone else's");
    Path theirs = Files.writeString(dir.resolve("theirs"), "");
    Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rw-rw-rw-"));
    Files.createSymbolicLink(dir.resolve("perftrack.backup.partial"), victim);
    Files.createSymbolicLink(file, theirs);

    ExternalPostgresTest.Command backup = ExternalPostgresTest.command(logs, "backup", file.toString(),
        "--perftrack.embedded-db.dir=" + environment.getProperty("perftrack.embedded-db.dir"));

    assertThat(backup.exit()).as(backup.output()).isZero();
    assertThat(backup.output()).contains("(open by the running server)");
    assertThat(Files.isSymbolicLink(file)).as("the planted link is replaced, not followed").isFalse();
    assertThat(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.size(file)).isPositive();
    assertThat(Files.readString(victim)).isEqualTo("someone else's");
    assertThat(Files.readString(theirs)).isEmpty();
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).sorted())
          .containsExactly("perftrack.backup", "perftrack.backup.partial", "theirs", "victim");
    }
  }
}
