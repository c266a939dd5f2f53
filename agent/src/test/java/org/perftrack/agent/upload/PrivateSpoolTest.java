package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.AclEntry;
import java.nio.file.attribute.AclEntryFlag;
import java.nio.file.attribute.AclEntryPermission;
import java.nio.file.attribute.AclEntryType;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.wire.RunUpload;

/** The spool is its user's alone: 0700 folders and 0600 files here, an owner-only ACL on Windows. */
class PrivateSpoolTest {

  @TempDir
  Path home;

  private static RunUpload run() {
    return new RunUpload(UUID.randomUUID().toString(), "cygwin", "1.5.24-2", RunUpload.MachineInfo.named("xp-lab-01"),
        "posix", null, Instant.parse("2007-03-07T19:00:00Z"), Instant.parse("2007-03-07T19:20:00Z"), Map.of(),
        List.of(new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
            List.of(48.2, 47.9, 48.4))), List.of());
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void everyFolderAndFileTheSpoolMakesIsItsOwnersOnly() throws Exception {
    Path root = home.resolve(".perftrack/spool");
    Spool spool = new Spool(root, "http://lab:8080");

    Path entry = spool.save(run());
    spool.sent(spool.save(run()));
    spool.reject(spool.save(run()), 400, "{\"detail\":\"bad\"}");

    assertThat(mode(home.resolve(".perftrack"))).isEqualTo("rwx------");
    try (Stream<Path> all = Files.walk(root)) {
      assertThat(all.toList()).hasSize(9).allSatisfy(p ->
          assertThat(mode(p)).as(p.toString()).isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------"));
    }
    assertThat(entry).exists();
  }

  @Test
  void aSpoolMadeBeforeIsMadePrivateWhenNextWritten() throws Exception {
    Path root = Files.createDirectories(home.resolve("spool"));
    Path sent = Files.createDirectories(root.resolve("sent"));
    Path old = Files.writeString(sent.resolve(UUID.randomUUID() + ".json"), "{}");
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(sent, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));

    new Spool(root, "http://lab:8080").save(run());

    assertThat(mode(root)).isEqualTo("rwx------");
    assertThat(mode(sent)).isEqualTo("rwx------");
    assertThat(mode(old)).isEqualTo("rw-------");
  }

  /** Windows is not at hand here: the ACL the spool's folders get there, as it is built. */
  @Test
  void onWindowsAFolderGetsOneEntryFullControlForItsOwnerThatWhatIsMadeInItInherits() {
    UserPrincipal owner = () -> "LAB\\perftrack";

    List<AclEntry> folder = PrivateFiles.ownerOnly(owner, true);
    List<AclEntry> file = PrivateFiles.ownerOnly(owner, false);

    assertThat(folder).singleElement().satisfies(e -> {
      assertThat(e.type()).isEqualTo(AclEntryType.ALLOW);
      assertThat(e.principal()).isEqualTo(owner);
      assertThat(e.permissions()).containsAll(List.of(AclEntryPermission.READ_DATA, AclEntryPermission.WRITE_DATA,
          AclEntryPermission.DELETE, AclEntryPermission.WRITE_ACL));
      assertThat(e.flags()).containsExactlyInAnyOrder(AclEntryFlag.FILE_INHERIT, AclEntryFlag.DIRECTORY_INHERIT);
    });
    assertThat(file).singleElement().satisfies(e -> assertThat(e.flags()).isEmpty());
  }
}
