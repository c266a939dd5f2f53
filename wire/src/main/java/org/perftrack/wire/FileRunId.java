package org.perftrack.wire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * The run id of another tool's file sent without an id: derived from the format, the tags and the file's bytes, so
 * that a CI job run again (with curl or with the agent) sends the same run, answered 200 and stored once. The same
 * file sent for a branch is another run than on the default branch. Shared by the server (a file sent without
 * {@code id}) and the agent (the id it spools the file under).
 */
public final class FileRunId {

  private FileRunId() {
  }

  /** {@code branch} is null on the default branch. */
  public static String of(String format, String product, String version, String machine, String branch,
      byte[] file) {
    String tagged = String.join("\u0000", format, product, version, machine, "");
    byte[] tags = (branch == null ? tagged : tagged + "branch\u0000" + branch).getBytes(StandardCharsets.UTF_8);
    // UUID.nameUUIDFromBytes of the tags followed by the file, without a copy of the file
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    md5.update(tags);
    byte[] hash = md5.digest(file);
    hash[6] = (byte) ((hash[6] & 0x0f) | 0x30); // version 3
    hash[8] = (byte) ((hash[8] & 0x3f) | 0x80); // IETF variant
    ByteBuffer bytes = ByteBuffer.wrap(hash);
    return new UUID(bytes.getLong(), bytes.getLong()).toString();
  }
}
