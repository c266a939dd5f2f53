package org.perftrack.agent.upload;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One agent process's hold on a spooled entry while it sends it: an OS lock on the entry's file, which the OS lets
 * go when the process ends however it ends, so a killed sender leaves nothing stuck. The lock is on a byte far past
 * the file's end: on Windows, where locks are mandatory, other processes can still read the entry (to list it).
 * An entry is read through the claim's own channel: on POSIX, closing any other handle of the file in this process
 * would let the lock go.
 */
public final class Claim implements Closeable {

  private static final long LOCKED_BYTE = Long.MAX_VALUE - 1;

  private final Spool spool;
  private final Path entry;
  private final FileChannel channel;
  private final FileLock lock;

  private Claim(Spool spool, Path entry, FileChannel channel, FileLock lock) {
    this.spool = spool;
    this.entry = entry;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Claims {@code entry} if no other process (or thread) holds it; null when one does, or when the entry has left
   * its place (sent or dropped by another process).
   */
  static Claim take(Spool spool, Path entry) throws IOException {
    FileChannel channel;
    try {
      channel = FileChannel.open(entry, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      return null;
    }
    FileLock lock = null;
    try {
      lock = channel.tryLock(LOCKED_BYTE, 1, false);
    } catch (OverlappingFileLockException e) {
      // a thread of this process holds it
    } finally {
      if (lock == null) {
        channel.close();
      }
    }
    if (lock == null) {
      return null;
    }
    if (!Files.exists(entry)) { // sent by the process that held it until a moment ago
      channel.close();
      return null;
    }
    return new Claim(spool, entry, channel, lock);
  }

  public Path entry() {
    return entry;
  }

  /** The entry's content, read through the claim. */
  public Request request() throws IOException {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    channel.position(0);
    while (channel.read(buffer) > 0) {
      content.write(buffer.array(), 0, buffer.position());
      buffer.clear();
    }
    return Request.of(entry.getFileName().toString(), content.toByteArray());
  }

  /** The server has it: the entry moves to {@code sent/}. */
  public void sent() throws IOException {
    spool.sent(entry);
  }

  /** The server refused it for good: the entry moves to {@code rejected/} beside the server's answer. */
  public Path reject(int status, String problem) throws IOException {
    return spool.reject(entry, status, problem);
  }

  /** Removes the entry (it was dropped, or it is a file its user still has). */
  public void delete() throws IOException {
    Files.deleteIfExists(entry);
  }

  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }
}
