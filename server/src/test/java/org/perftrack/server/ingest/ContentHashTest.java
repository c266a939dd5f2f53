package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.db.Json;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.SerializationFeature;

/**
 * The content hash is written into the digest as it is serialised; it must stay the hash stored for runs uploaded
 * before (SHA-256 of the canonical JSON as a String, in UTF-8), or their resends would be answered 409.
 */
class ContentHashTest {

  @Test
  void streamedHashIsTheHashOfTheCanonicalString() throws Exception {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("zeta", "last key first");
    attributes.put("alpha", "Grüße, 東京 and an emoji \uD83D\uDE80");
    attributes.put("lone", "a lone surrogate \uD800 here");
    RunUpload run = new RunUpload("6f1c1b4e-2a4d-4c55-9d3e-0f6a7b8c9d0e", "prodüct", "2.0",
        new RunUpload.MachineInfo("box-é", "Linux", "x86_64", 2, 8192L, Map.of("b", "2", "a", "1")), "posix", null,
        null, null, attributes,
        List.of(new RunUpload.ResultUpload("bench-ä", "time", "us", RunUpload.LOWER_IS_BETTER, List.of(1.5, 2.25, 1e-9))),
        List.of());
    String canonical = Json.MAPPER.rebuild().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build()
        .writeValueAsString(run);
    String before = HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    assertThat(IngestService.contentHash(run)).isEqualTo(before);
  }
}
