package org.perftrack.server.db;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL processes of one data directory as the operating system sees them.
 *
 * <p>{@code pg_ctl start} daemonises the postmaster, so a server killed with {@code kill -9} leaves it
 * running and the next start fails on {@code postmaster.pid}. zonky's {@code epg-lock} file is locked
 * by the running server: when nobody holds it, a live postmaster of this directory is an orphan, and a
 * smart shutdown (SIGTERM) stops it safely (its clients died with the server).
 */
final class OrphanPostmaster {

  private static final Logger log = LoggerFactory.getLogger(OrphanPostmaster.class);
  static final String LOCK_FILE = "epg-lock";
  private static final Duration STOP_WAIT = Duration.ofSeconds(60);

  private OrphanPostmaster() {}

  static void stopIfAny(Path dir) throws IOException {
    if (!Files.isRegularFile(dir.resolve("postmaster.pid"))) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.tryLock()) {
      if (lock == null) {
        throw new IllegalStateException("another perftrack server is running on " + dir);
      }
      Optional<ProcessHandle> orphan = running(dir);
      if (orphan.isPresent()) {
        log.warn("stopping the PostgreSQL (pid {}) left running in {} by a server that ended without stopping it",
            orphan.get().pid(), dir);
        stop(orphan.get());
      }
    } catch (OverlappingFileLockException e) {
      throw new IllegalStateException("this process already runs a database on " + dir, e);
    }
  }

  /**
   * The port of the PostgreSQL that a running perftrack server (another process, holding the lock) serves this
   * directory's database on; empty when no server has it open.
   */
  static Optional<Integer> portOfServer(Path dir) throws IOException {
    if (running(dir).isEmpty()) {
      return Optional.empty();
    }
    try (FileChannel ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.tryLock()) {
      if (lock != null) {
        return Optional.empty(); // an orphan: the next start stops it
      }
    } catch (OverlappingFileLockException e) {
      throw new IllegalStateException("this process already runs a database on " + dir, e);
    }
    List<String> lines = Files.readAllLines(dir.resolve("postmaster.pid"));
    return Optional.of(Integer.parseInt(lines.get(3).strip())); // PostgreSQL's postmaster.pid: line 4 is the port
  }

  /** The live postmaster named by {@code postmaster.pid}, if it is a postgres of this directory. */
  static Optional<ProcessHandle> running(Path dir) {
    try {
      List<String> lines = Files.readAllLines(dir.resolve("postmaster.pid"));
      long pid = Long.parseLong(lines.get(0).strip());
      Path dataDir = Path.of(lines.get(1).strip());
      return ProcessHandle.of(pid)
          .filter(ProcessHandle::isAlive)
          .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
          .filter(p -> sameFile(dataDir, dir));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void stop(ProcessHandle postmaster) throws IOException {
    postmaster.destroy();
    try {
      postmaster.onExit().get(STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException("the PostgreSQL left running (pid " + postmaster.pid() + ") did not stop in " + STOP_WAIT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping PostgreSQL pid " + postmaster.pid(), e);
    } catch (ExecutionException e) {
      throw new IOException(e);
    }
  }

  /**
   * After the postmaster died, its backends notice and exit within moments; PostgreSQL refuses to start
   * while one still holds the old shared memory. They all work in the data directory (Linux: /proc).
   */
  static void awaitBackendsGone(Path dir) {
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    while (System.nanoTime() < deadline && ProcessHandle.allProcesses().anyMatch(p -> worksIn(p, dir))) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static boolean worksIn(ProcessHandle p, Path dir) {
    try {
      return p.isAlive() && p.info().command().map(c -> c.endsWith("/postgres")).orElse(false)
          && Files.readSymbolicLink(Path.of("/proc", Long.toString(p.pid()), "cwd")).equals(dir);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * zonky locks {@code epg-lock} in its constructor; a start that failed after that leaves the lock to
   * the garbage collector. Only this process uses the directory (it held the lock), so a new file does.
   */
  static void freshLockFile(Path dir) throws IOException {
    Files.deleteIfExists(dir.resolve(LOCK_FILE));
  }

  private static boolean sameFile(Path a, Path b) {
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }
}
