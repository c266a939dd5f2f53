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
}
