package org.perftrack.server.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.profiles.ProfileComparison.CounterChange;
import org.perftrack.server.profiles.ProfileComparison.SyscallChange;

/** What a summary's profiled members share, as its page words it. */
class SharedProfilesTest {

  private static ProfileComparison done(String benchmark, double switches, double reads) {
    List<SyscallChange> calls = reads == 0 ? List.of(new SyscallChange("write", 1, 1, 0.5, 0.5, "same"))
        : List.of(new SyscallChange("read", 0, reads, 0, 0.5, "appeared"),
            new SyscallChange("write", 1, 1, 0.5, 0.5, "same"));
    List<CounterChange> counters = List.of(new CounterChange(ProfileDiff.VOLUNTARY, 0.01, 0.01 + switches),
        new CounterChange(ProfileDiff.INVOLUNTARY, 0.02, 0.02), new CounterChange(ProfileDiff.USER_US, 1, 1.1));
    return new ProfileComparison(ProfileStatus.DONE, "xp", benchmark, "1.5.19-4", "1.5.24-2", "s", calls, counters,
        List.of(), List.of(), 1L, 2L, List.of(), null);
  }

  @Test
  void theChangeMostMembersShareComesFirstWithItsAmounts() {
    List<String> lines = SharedProfiles.lines(List.of(done("write-64b", 2, 2), done("read-64b", 2.02, 4),
        done("pipe-latency", 1.98, 0)), 3);

    assertThat(lines).containsExactly("3 of 3 slower benchmarks gained 2 context switches per operation",
        "2 of 3 slower benchmarks make 2 to 4 more read() calls per operation");
  }

  @Test
  void oneMemberMakesAndNothingSharedSaysNothing() {
    assertThat(SharedProfiles.lines(List.of(done("fork", 0.1, 1)), 2))
        .containsExactly("1 of 2 slower benchmarks makes 1 more read() call per operation");
    assertThat(SharedProfiles.lines(List.of(done("fork", 0.1, 0)), 2)).isEmpty();
  }
}
