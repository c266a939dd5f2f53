package org.perftrack.server.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/** The embedded database's superuser password: generated once, kept in the data directory, mode 0600. */
final class DbPassword {

  static final String FILE = "perftrack-db-password";

  private final Path file;
  private final String value;

  DbPassword(Path dir) {
    this.file = dir.resolve(FILE);
    this.value = isStored() ? read(file) : generate();
  }

  String value() {
    return value;
  }

  boolean isStored() {
    return Files.isRegularFile(file);
  }

  void store() {
    if (isStored()) {
      return;
    }
    writeOwnerOnly(file, value);
  }

  /** initdb wants the password in a file, and an empty data directory: a temporary file outside it. */
  Path writeInitdbFile() throws IOException {
    Path tmp = Files.createTempFile("perftrack-initdb-", ".pw");
    writeOwnerOnly(tmp, value);
    return tmp;
  }

  private static void writeOwnerOnly(Path path, String text) {
    try {
      Files.deleteIfExists(path.resolveSibling(path.getFileName() + ".tmp"));
      Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(tmp, text + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** 32 random bytes, URL-safe Base64: no quote or backslash ever needs escaping. */
  private static String generate() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
