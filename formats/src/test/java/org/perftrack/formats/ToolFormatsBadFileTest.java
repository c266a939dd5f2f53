package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perftrack.wire.FormatGuess;

/** A cut-off or another tool's file is refused whole, with a message that says which. */
class ToolFormatsBadFileTest {

  /** The first {@code fraction} of a golden file, as a dropped upload or a full disk leaves it. */
  private static byte[] cut(byte[] whole, double fraction) {
    return Arrays.copyOf(whole, (int) (whole.length * fraction));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
      "benchmarkdotnet, benchmarkdotnet/full-0.13.json, truncated JSON",
      "bmf, bmf/latency-throughput.json, truncated JSON",
      "vitest, vitest/vitest-3.2.4.json, truncated JSON",
      "pyperf, pyperf/suite-2.10.json, truncated JSON",
      "benchmarkjs, benchmarkjs/benchmark-2.1.4.json, truncated JSON",
      "asv, asv/cheetah-v1.json, truncated JSON",
      "catch2, catch2/catch2-2.13.10.xml, truncated XML",
      "go-bench, go-bench/count3-go1.19.txt, truncated: the file ends inside line",
      "go-bench, go-bench/json-go1.19.txt, truncated"})
  void aTruncatedFileIsRefusedAsTruncated(String format, String file, String message) {
    byte[] whole = Golden.bytes(file);
    double fraction = format.equals("go-bench") ? 0.5 : format.equals("cargo-bench") ? 0.45 : 0.6;
    assertThatThrownBy(() -> Golden.convert(format, cut(whole, fraction), file))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(file + ": " + message);
  }

  @ParameterizedTest(name = "cut at {0}")
  @org.junit.jupiter.params.provider.ValueSource(doubles = {0.2, 0.5, 0.9, 0.99})
  void aTruncatedFolderZipIsRefusedAsTruncated(double fraction) {
    byte[] zip = Golden.zip("criterion/0.3.6/criterion");
    assertThatThrownBy(() -> Golden.convert("criterion", cut(zip, fraction), "criterion.zip"))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("criterion.zip: truncated zip");
  }

  @ParameterizedTest(name = "{1} given as {0}")
  @CsvSource({
      "go-bench, cargo-bench/rust-1.95.txt, cargo bench (libtest), cargo-bench",
      "cargo-bench, go-bench/count3-go1.19.txt, go test -bench, go-bench",
      "benchmarkdotnet, vitest/vitest-1.6.1.json, vitest bench, vitest",
      "vitest, benchmarkdotnet/full-0.13.json, BenchmarkDotNet, benchmarkdotnet",
      "pyperf, pytest-benchmark/benchmark.json, pytest-benchmark, pytest-benchmark",
      "pytest-benchmark, pyperf/timeit-2.10.json, pyperf, pyperf",
      "bmf, gbench/counters.json, Google Benchmark, gbench",
      "gbench, bmf/latency-throughput.json, Bencher Metric Format, bmf",
      "catch2, asv/cheetah-v1.json, asv, asv",
      "asv, catch2/catch2-2.13.10.xml, Catch2 XML, catch2",
      "hyperfine, jmh/thrpt-avgt-gc.json, JMH, jmh",
      "criterion, hyperfine/basic.json, hyperfine, hyperfine",
      "go-bench, benchmarkjs/benchmark-2.1.4-console.txt, Benchmark.js, benchmarkjs",
      "benchmarkjs, vitest/vitest-3.2.4.json, vitest bench, vitest"})
  void anotherToolsFileIsNamedWithTheFormatToUse(String format, String file, String label, String right) {
    assertThatThrownBy(() -> Golden.convert(format, file))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(file + ": this looks like a " + label + " file, not " + FormatGuess.label(format))
        .hasMessageEndingWith("(use format '" + right + "')");
  }

  @Test
  void aFolderWithResultsOfSeveralCommitsIsRefusedNamingThem() {
    byte[] twoCommits = zipOf("results/benchmarks.json", Golden.bytes("asv/results/benchmarks.json"),
        "results/m/aaaa-py.json", Golden.bytes("asv/results/ci-runner/4f8c2a1d-virtualenv-py3.11.json"),
        "results/m/bbbb-py.json", Golden.bytes("asv/cheetah-v1.json"));
    assertThatThrownBy(() -> Golden.convert("asv", twoCommits, "results.zip"))
        .hasMessageStartingWith("results.zip: 2 result files (results/m/aaaa-py.json, results/m/bbbb-py.json)");
  }

  @Test
  void aZipBombIsNotUnpacked() {
    byte[] zeros = new byte[1 << 20];
    Object[] entries = new Object[2 * 300];
    for (int i = 0; i < 300; i++) {
      entries[2 * i] = "c/b" + i + "/new/sample.json";
      entries[2 * i + 1] = zeros;
    }
    byte[] bomb = zipOf(entries);
    assertThat(bomb.length).isLessThan(1 << 20);
    assertThatThrownBy(() -> Golden.convert("criterion", bomb, "bomb.zip"))
        .hasMessage("bomb.zip: the zip unpacks to more than " + mb(FolderFiles.limit(bomb.length))
            + " of result files (20 times its own size, at most 256 MB)");
    assertThat(FolderFiles.limit(bomb.length)).as("refused after a few megabytes, not 256").isLessThan(20L << 20);
  }

  private static String mb(long bytes) {
    return bytes >= 10L << 20 ? (bytes >> 20) + " MB" : String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1048576.0);
  }

  private static byte[] zipOf(Object... pathsAndContents) {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(bytes)) {
      for (int i = 0; i < pathsAndContents.length; i += 2) {
        zip.putNextEntry(new java.util.zip.ZipEntry((String) pathsAndContents[i]));
        zip.write((byte[]) pathsAndContents[i + 1]);
        zip.closeEntry();
      }
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return bytes.toByteArray();
  }
}
