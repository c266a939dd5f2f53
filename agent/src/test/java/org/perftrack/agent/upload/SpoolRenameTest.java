package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.wire.RunUpload;

/** An antivirus that holds a new spool file for a moment must not cost a run: the rename is tried again. */
class SpoolRenameTest {

  @TempDir
  Path dir;

  private final AtomicInteger attempts = new AtomicInteger();

  /** Refuses the first {@code refusals} renames as Windows does while a scanner holds the file. */
  private Spool.Mover heldFor(int refusals) {
    return (from, to) -> {
      if (attempts.incrementAndGet() <= refusals) {
        throw new AccessDeniedException(from.toString(), to.toString(), "being used by another process");
      }
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    };
  }

  private static final String SERVER = "http://lab:8080";

  @Test
  void aRenameRefusedTwiceIsTriedAgainAndTheRunIsSpooled() throws Exception {
    new Spool(dir, SERVER).save(run(UUID.randomUUID().toString())); // the server's folder is there already
    Spool spool = new Spool(dir, SERVER, heldFor(2), 0, 0, 0, 0);

    Path saved = spool.save(run());

    assertThat(attempts).hasValue(3);
    assertThat(saved).exists();
    assertThat(spool.pending()).hasSize(2).contains(saved);
  }

  @Test
  void aRenameRefusedEveryTimeFailsWithTheLastErrorAfterTheRetries() {
    Spool spool = new Spool(dir, SERVER, heldFor(Integer.MAX_VALUE), 0, 0, 0, 0);

    Throwable thrown = catchThrowable(() -> spool.save(run()));

    assertThat(thrown).isInstanceOf(AccessDeniedException.class).hasMessageContaining("being used");
    assertThat(attempts).hasValue(5);
  }

  @Test
  void sendingAndRejectingRetryToo() throws Exception {
    Path saved = new Spool(dir, SERVER).save(run());
    Spool spool = new Spool(dir, SERVER, heldFor(1), 0, 0, 0, 0);

    spool.sent(saved);

    assertThat(spool.sentFolder().resolve(saved.getFileName())).exists();
    assertThat(attempts).hasValue(2);
  }

  private static RunUpload run() {
    return run("3f1c2a4e-0c2d-4e55-8f41-3f1d2c4b5a6e");
  }

  private static RunUpload run(String id) {
    return new RunUpload(id, "cygwin", "1.5.24-2",
        RunUpload.MachineInfo.named("xp-lab-01"), "posix", null, Instant.parse("2007-03-07T19:00:00Z"),
        Instant.parse("2007-03-07T19:20:00Z"), java.util.Map.of(),
        List.of(new RunUpload.ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
            List.of(48.2, 47.9, 48.4))), List.of());
  }
}
