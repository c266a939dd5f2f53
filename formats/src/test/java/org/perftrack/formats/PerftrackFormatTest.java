package org.perftrack.formats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.perftrack.wire.RunUpload;

class PerftrackFormatTest {

  private static final String RUN = """
      {"id": "3f1c2a9e-0b7d-4c1e-9a55-2f7f1e0c9d41", "product": "cygwin", "version": "1.5.24-2",
       "machine": {"name": "xp-lab-01", "os": "Windows XP SP2", "cores": 1}, "suite": "posix",
       "results": [{"benchmark": "write-64b", "metric": "time-per-op", "unit": "us",
                    "direction": "lower_is_better", "samples": [48.2, 47.9, 48.4]}]}""";

  @Test
  void ownRunFileKeepsWhatItSaysWhenTheContextIsEmpty() throws Exception {
    RunUpload run = Formats.byName("perftrack").convert(RUN.getBytes(UTF_8), "run.json",
        new RunContext(null, null, null, null));

    assertThat(run.id()).isEqualTo("3f1c2a9e-0b7d-4c1e-9a55-2f7f1e0c9d41");
    assertThat(run.product()).isEqualTo("cygwin");
    assertThat(run.machine().os()).isEqualTo("Windows XP SP2");
    assertThat(run.results().get(0).samples()).containsExactly(48.2, 47.9, 48.4);
  }

  @Test
  void contextOverridesProductVersionAndMachineName() throws Exception {
    RunUpload run = Formats.byName("perftrack").convert(RUN.getBytes(UTF_8), "run.json",
        new RunContext("cygwin64", "3.5.4-1", "win11-lab", null));

    assertThat(run.product()).isEqualTo("cygwin64");
    assertThat(run.version()).isEqualTo("3.5.4-1");
    assertThat(run.machine().name()).isEqualTo("win11-lab");
    assertThat(run.machine().os()).as("the rest of the machine stays").isEqualTo("Windows XP SP2");
  }

  @Test
  void aSampleThatIsNotAFiniteNumberIsNamed() {
    byte[] nan = RUN.replace("47.9", "NaN").getBytes(UTF_8);

    assertThatThrownBy(() -> Formats.byName("perftrack").convert(nan, "run.json", Golden.CONTEXT))
        .hasMessage("run.json: results[0].samples[1] is NaN, not a finite number");
  }

  @Test
  void toolFileGivenWithoutFormatNamesTheFormatToUse() {
    assertThatThrownBy(() -> Formats.byName("perftrack").convert(Golden.bytes("jmh/sample-ss.json"), "r.json",
        Golden.CONTEXT))
        .hasMessage("r.json: this looks like a JMH file, not perftrack (use format 'jmh')");
  }
}
