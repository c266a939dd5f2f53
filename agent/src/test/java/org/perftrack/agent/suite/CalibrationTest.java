package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, item 4: at a large --scale calibration must end with a positive count, not overflow and spin.
 * 32-bit Cygwin's `long` cannot be had here (no -m32 libraries), so the test compiles the real null-call
 * program with a small iteration cap standing in for the 32-bit limit and asks for the largest scale the
 * config allows: calibration must stop at the cap, exactly, instead of growing past it.
 */
class CalibrationTest {

  @TempDir
  Path dir;

  @Test
  void aLargeScaleStopsCalibrationAtTheCapWithAPositiveCount() throws Exception {
    SuiteFiles.extract(dir);
    run(List.of("gcc", "-O2", "-DBENCH_MAX_ITERS=300000L", "-o", "null_call", "null_call.c"));

    String out = run(List.of("./null_call", "calibrate", "100"));

    assertThat(out.trim()).isEqualTo("perftrack-calibrated iters=300000");
    assertThat(Sample.parseIterations(out)).hasValue(300_000);
  }

  @Test
  void withoutACapOverrideTheCapIsAQuarterOfLongMax() throws Exception {
    SuiteFiles.extract(dir);
    Files.writeString(dir.resolve("cap.c"), """
        #define BENCH_UNIT "ns"
        #include "bench.h"
        static void bench_setup(int argc, char **argv) { (void) argc; (void) argv; }
        static void bench_run(long iters) { (void) iters; }
        static void bench_teardown(void) {}
        """);
    Files.writeString(dir.resolve("next.c"), """
        #include <stdio.h>
        #define main bench_main
        #include "cap.c"
        #undef main
        int main(void) {
          /* near the cap a growth of 100x must give the cap, never a negative or smaller count */
          printf("%d %d %d\\n", bench_next_iters(BENCH_MAX_ITERS / 2, 1e-9, 50.0) == BENCH_MAX_ITERS,
              bench_next_iters(1000, 1e-9, 50.0) == 100001, BENCH_MAX_ITERS == LONG_MAX / 4);
          return 0;
        }
        """);
    run(List.of("gcc", "-O2", "-o", "next", "next.c"));

    assertThat(run(List.of("./next")).trim()).isEqualTo("1 1 1");
  }

  private String run(List<String> command) throws Exception {
    Path out = dir.resolve("out.txt");
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(command + " finished").isTrue();
    String text = Files.readString(out);
    assertThat(p.exitValue()).as(command + ": " + text).isZero();
    return text;
  }
}
