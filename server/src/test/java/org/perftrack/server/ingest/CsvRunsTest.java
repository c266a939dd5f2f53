package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Rows that repeat a benchmark and metric append their values to its samples in place (issue 26 item 7): each
 * row used to copy the growing list, so 80,000 such rows took 15.9 s. Measured here by what parsing allocates,
 * which does not depend on the machine's speed: in place it grows with the rows, copying grew with their square
 * (40,000 rows: gigabytes). Speed itself: bench CsvImportBenchmark.
 */
class CsvRunsTest {

  static final int ROWS = 40_000;
  /** A row's line, fields, map and sample cost well under a kilobyte; copying cost 4 bytes × the rows before it. */
  static final long BYTES_PER_ROW = 10_000;

  static byte[] repeatedRows(int rows) {
    StringBuilder csv = new StringBuilder("product,machine,version,benchmark,metric,unit,direction,value\n");
    for (int i = 0; i < rows; i++) {
      csv.append("cygwin,xp-lab-01,1.5.24-2,write-64b,time-per-op,us,lower_is_better,").append(i).append('\n');
    }
    return csv.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void repeatedRowsAppendTheirValuesInOrderAndParsingAllocatesInProportionToTheRows() throws Exception {
    byte[] csv = repeatedRows(ROWS);
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();

    CsvRuns.Read read = CsvRuns.read(new ByteArrayInputStream(csv), 1 << 20, 1_000_000);

    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    System.out.printf("CsvRunsTest: %d repeated rows allocated %.1f MB%n", ROWS, allocated / 1e6);
    assertThat(read.parsed()).hasSize(1);
    var samples = read.parsed().get(0).run().results().get(0).samples();
    assertThat(samples).hasSize(ROWS);
    assertThat(samples.get(0)).isEqualTo(0.0);
    assertThat(samples.get(ROWS - 1)).isEqualTo(ROWS - 1.0);
    assertThat(allocated).isLessThan(ROWS * BYTES_PER_ROW);
  }

  /**
   * A file read as a stream: the runs being assembled are given out once their rows pass the bound, so memory stays
   * bounded; a later row of a run given out is a bad line (beyond the bound a run's rows must follow each other),
   * while rows of runs not given out yet still join them.
   */
  @Test
  void runsAreGivenOutOnceTheirRowsPassTheBoundAndALateRowOfOneIsABadLine() {
    String csv = "product,machine,version,benchmark,metric,unit,direction,value\n"
        + "p,m,1.0,b,t,ns,lower_is_better,1\n" // line 2: run 1.0
        + "p,m,1.0,b,t,ns,lower_is_better,2\n"
        + "p,m,2.0,b,t,ns,lower_is_better,3\n" // line 4: run 2.0; past the bound: both given out
        + "p,m,3.0,b,t,ns,lower_is_better,4\n" // line 5: run 3.0
        + "p,m,1.0,b,t,ns,lower_is_better,5\n" // line 6: run 1.0 again
        + "p,m,3.0,b,t,ns,lower_is_better,6\n";
    java.util.List<CsvRuns.Parsed> out = new java.util.ArrayList<>();

    long read = CsvRuns.read(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)), 1 << 20, 1_000_000, 80,
        out::add);

    assertThat(read).isEqualTo(6);
    assertThat(out).extracting(CsvRuns.Parsed::line).containsExactly(2L, 4L, 6L, 5L);
    assertThat(out.get(0).run().results().get(0).samples()).containsExactly(1.0, 2.0);
    assertThat(out.get(0).bytes()).isEqualTo(2L * "p,m,1.0,b,t,ns,lower_is_better,1".length());
    assertThat(out.get(2).run()).isNull();
    assertThat(out.get(2).problems().get(0).message()).contains("run of line 2", "must follow each other");
    assertThat(out.get(3).run().results().get(0).samples()).containsExactly(4.0, 6.0);
  }

  /** A line with no end is not read whole: past the line limit it is skipped and reported, the file goes on. */
  @Test
  void aLineOverTheLimitIsReportedWithoutBeingHeld() {
    String csv = "product,machine,version,benchmark,metric,unit,direction,value\n"
        + "p,m,1.0,b,t,ns,lower_is_better," + "1".repeat(5000) + "\n"
        + "p,m,1.0,b,t,ns,lower_is_better,2\n";

    CsvRuns.Read read = CsvRuns.read(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)), 1000, 1_000_000);

    assertThat(read.parsed()).hasSize(2);
    assertThat(read.parsed().get(0).problems().get(0).message()).isEqualTo("is too long");
    assertThat(read.parsed().get(1).run().results().get(0).samples()).containsExactly(2.0);
  }

  /** A body that breaks off: the line it broke in is reported, and runs with rows before it are not given out. */
  @Test
  void aBodyThatBreaksOffGivesOutNoRunThatMayMissRows() {
    byte[] rows = ("product,machine,version,benchmark,metric,unit,direction,value\n"
        + "p,m,1.0,b,t,ns,lower_is_better,1\n").getBytes(StandardCharsets.UTF_8);
    java.io.InputStream broken = new java.io.SequenceInputStream(new ByteArrayInputStream(rows),
        new java.io.InputStream() {
          @Override
          public int read() throws java.io.IOException {
            throw new java.io.EOFException("connection closed");
          }
        });
    java.util.List<CsvRuns.Parsed> out = new java.util.ArrayList<>();

    CsvRuns.read(broken, 1 << 20, 1_000_000, Long.MAX_VALUE, out::add);

    assertThat(out).hasSize(1);
    assertThat(out.get(0).run()).isNull();
    assertThat(out.get(0).line()).isEqualTo(3);
    assertThat(out.get(0).problems().get(0).field()).isEqualTo("body");
    assertThat(out.get(0).problems().get(0).message()).contains("broke off", "connection closed");
  }
}
