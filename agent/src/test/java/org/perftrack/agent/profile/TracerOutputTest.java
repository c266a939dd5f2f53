package org.perftrack.agent.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tracers' output as the profile reads it. */
class TracerOutputTest {

  /** Captured here from {@code strace -f -c} of write-64b under the write round-trip layer (1,000 writes). */
  @Test
  void readsLinuxStraceSummaryTableWithAndWithoutErrors() throws Exception {
    Map<String, Syscalls.Count> counts = Syscalls.linux(fixture("strace-c-linux.txt"));

    assertThat(counts.get("write").calls).isEqualTo(3001);
    assertThat(counts.get("read").calls).isEqualTo(2002);
    assertThat(counts.get("write").seconds).isEqualTo(0.032192);
    assertThat(counts.get("access").errors).isEqualTo(1);
    assertThat(counts).doesNotContainKey("total");
  }

  /**
   * A fixture WRITTEN FROM THE DOCUMENTATION, not captured (no Cygwin here): the Cygwin User's Guide describes
   * strace's messages as microseconds since the previous message, microseconds since start, {@code [thread]},
   * program, Windows pid and {@code function: message}, and maintainers count calls by their messages
   * ({@code grep -c 'fork: 0 = fork()'}, seed 000). The header block strace prints first is not a message.
   */
  @Test
  void readsCygwinStraceMessagesAsCountsPerFunctionFromAFixtureWrittenFromTheUsersGuide() throws Exception {
    Map<String, Syscalls.Count> counts = Syscalls.cygwin(fixture("strace-cygwin.txt"));

    assertThat(counts.get("sigprocmask").calls).isEqualTo(3);
    assertThat(counts.get("sig_dispatch_pending").calls).isEqualTo(2);
    assertThat(counts.get("fork").calls).isEqualTo(1);
    assertThat(counts.get("fork").seconds).isEqualTo(0.00521);
    assertThat(counts.get("open").errors).isEqualTo(1);
    assertThat(counts.get("fhandler_base::close").calls).isEqualTo(1);
    assertThat(counts.get("wait_sig").calls).isEqualTo(1);
    assertThat(counts.keySet()).noneMatch(k -> k.contains("Program"));
  }

  @Test
  void readsPerfReportRowsAsSamplesByModuleAndFunction() {
    String report = """
        # Samples: 5K of event 'cpu-clock'
        # Overhead       Samples  Shared Object         Symbol
        # ........  ............  ....................  .........................................
        #
            80.30%          4356  profilelayer.so       [.] profilelayer_burn
            19.00%          1000  lstat_dir             [.] main
             0.17%             9  [kernel.kallsyms]     [k] finish_task_switch.isra.0
        """;
    Map<String, Long> samples = PerfTable.parse(report);

    assertThat(samples).containsEntry("profilelayer.so\tprofilelayer_burn", 4356L)
        .containsEntry("lstat_dir\tmain", 1000L).containsEntry("[kernel.kallsyms]\tfinish_task_switch.isra.0", 9L)
        .hasSize(3);
  }

  @Test
  void readsTheRusageWrappersLine() {
    Map<String, Double> c = Rusage.parse("perftrack-profiled ops=2000\n"
        + "perftrack-rusage user=0.449062 sys=0.018714 nvcsw=1 nivcsw=177 minflt=100 majflt=0\n");

    assertThat(c).containsEntry(Rusage.VOLUNTARY, 1.0).containsEntry(Rusage.INVOLUNTARY, 177.0)
        .containsEntry(Rusage.MINOR_FAULTS, 100.0).containsEntry(Rusage.USER_US, 449062.0);
    assertThat(Rusage.parse("no line here")).isEmpty();
  }

  private static String fixture(String name) throws Exception {
    return new String(Files.readAllBytes(Path.of("src/test/resources/profile/" + name)), StandardCharsets.UTF_8);
  }
}
