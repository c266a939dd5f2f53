package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.formats.Formats;
import org.perftrack.formats.RunContext;

/**
 * A tool's file sent again with the same tags gets the id it got before, also from servers that derived it by
 * copying the file behind its tags ({@code UUID.nameUUIDFromBytes}): stored runs keep matching their resends.
 */
class SameFileSameIdTest {

  @Test
  void theIdIsTheNameUuidOfTheTagsFollowedByTheFileWithoutACopyOfIt() throws Exception {
    byte[] file = "{\"results\":[]}".getBytes(StandardCharsets.UTF_8);
    RunContext context = new RunContext("p", "1.0", "m", null);
    String tags = String.join("\u0000", "hyperfine", "p", "1.0", "m", "");

    assertThat(ForeignRunsApi.sameFileSameId(Formats.byName("hyperfine"), context, file, null))
        .isEqualTo(UUID.nameUUIDFromBytes((tags + "{\"results\":[]}").getBytes(StandardCharsets.UTF_8)).toString());
    assertThat(ForeignRunsApi.sameFileSameId(Formats.byName("hyperfine"), context, file, "pr-1"))
        .isEqualTo(UUID.nameUUIDFromBytes((tags + "branch\u0000pr-1{\"results\":[]}").getBytes(StandardCharsets.UTF_8))
            .toString());
  }
}
