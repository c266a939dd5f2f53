package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * A migration that has landed is never edited, renamed or removed: a database migrated with it would no
 * longer validate. {@code db/migration-checksums.txt} pins every migration file; a new migration adds its
 * line (the failure message prints it), an edited, renamed or removed one fails here.
 */
class MigrationChecksumsTest {

  static final String PINNED = "/db/migration-checksums.txt";

  @Test
  void everyMigrationIsPinnedAndUnchanged() throws IOException {
    Map<String, String> pinned = pinned();
    Map<String, String> actual = migrations();

    assertThat(actual.keySet()).as("pinned migrations still present under their name (never rename or remove one)")
        .containsAll(pinned.keySet());
    actual.forEach((file, sha) -> {
      assertThat(pinned).as("%s is not pinned: add the line \"%s %s\" to server/src/test/resources%s", file, file, sha, PINNED)
          .containsKey(file);
      assertThat(sha).as("%s was edited after it landed: write a new migration instead", file)
          .isEqualTo(pinned.get(file));
    });
  }

  static Map<String, String> pinned() throws IOException {
    Map<String, String> pinned = new TreeMap<>();
    try (InputStream in = MigrationChecksumsTest.class.getResourceAsStream(PINNED)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          String[] parts = line.trim().split("\\s+");
          pinned.put(parts[0], parts[1]);
        }
      }
    }
    return pinned;
  }

  static Map<String, String> migrations() throws IOException {
    Map<String, String> sums = new TreeMap<>();
    for (Resource r : new PathMatchingResourcePatternResolver().getResources("classpath*:db/migration/*.sql")) {
      try (InputStream in = r.getInputStream()) {
        sums.put(r.getFilename(), sha256(in.readAllBytes()));
      }
    }
    assertThat(sums).as("migrations found on the class path").isNotEmpty();
    return sums;
  }

  /** SHA-256 of the text with line ends normalised, so a checkout with CRLF line ends still matches. */
  static String sha256(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8).replace("\r\n", "\n");
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
