package org.perftrack.wire;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The result file formats the server converts ({@code POST /api/v1/runs?format=}). The agent names them in
 * its help without carrying the converters, which need Java 17; the formats module checks that its
 * registry matches this list.
 */
public final class FormatNames {

  public static final String PERFTRACK = "perftrack";

  public static final List<String> ALL = Collections.unmodifiableList(
      Arrays.asList(PERFTRACK, "hyperfine", "gbench", "jmh", "pytest-benchmark", "criterion", "go-bench",
          "benchmarkdotnet", "catch2", "asv", "bmf", "cargo-bench", "vitest", "pyperf", "benchmarkjs"));

  /** The formats whose tool writes a folder, sent as one zip of it (the agent zips the folder). */
  public static final List<String> FOLDERS = Collections.unmodifiableList(Arrays.asList("criterion", "asv"));

  private FormatNames() {}
}
