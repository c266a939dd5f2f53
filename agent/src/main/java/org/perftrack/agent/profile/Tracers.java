package org.perftrack.agent.profile;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.suite.PreparedTarget;

/**
 * Which tracers a target has and may use: each is tried once on {@code true} inside the target (its shell,
 * its environment), so "not installed" and "not permitted" (ptrace blocked, {@code perf_event_paranoid})
 * are told apart and named.
 */
final class Tracers {

  private static final Duration PROBE_TIMEOUT = Duration.ofMinutes(1);

  /** The commands to call: {@code strace} and {@code perf} on the target's PATH. */
  static final class Commands {
    final String strace;
    final String perf;

    Commands(String strace, String perf) {
      this.strace = strace;
      this.perf = perf;
    }

    static Commands standard() {
      return new Commands("strace", "perf");
    }
  }

  final boolean cygwin;
  final boolean strace;
  final boolean perf;
  final List<String> missing;

  private Tracers(boolean cygwin, boolean strace, boolean perf, List<String> missing) {
    this.cygwin = cygwin;
    this.strace = strace;
    this.perf = perf;
    this.missing = missing;
  }

  static Tracers probe(ShellRunner runner, PreparedTarget t, Commands commands)
      throws IOException, InterruptedException {
    String os = t.environment().get("os");
    boolean cygwin = os != null && os.toUpperCase(java.util.Locale.ROOT).startsWith("CYGWIN");
    List<String> missing = new ArrayList<>();
    String straceTry = cygwin ? commands.strace + " -o strace-probe.txt true"
        : commands.strace + " -f -c -o strace-probe.txt true";
    boolean strace = works(runner, t, straceTry, "strace", missing);
    boolean perf = false;
    if (cygwin) {
      missing.add("perf: there is no perf on Cygwin");
    } else {
      perf = works(runner, t, commands.perf + " record -q -e cpu-clock -g -o perf-probe.data -- true", "perf",
          missing);
    }
    if (cygwin) {
      missing.add("context switches: Cygwin's rusage does not count them");
    }
    return new Tracers(cygwin, strace, perf, missing);
  }

  private static boolean works(ShellRunner runner, PreparedTarget t, String script, String tool, List<String> missing)
      throws IOException, InterruptedException {
    ShellRunner.Result r = runner.run(t.target().command(script), t.target().shell().env(), PROBE_TIMEOUT);
    if (r.ok()) {
      return true;
    }
    String said = firstLine(r.stderr().isEmpty() ? r.stdout() : r.stderr());
    if (r.exitCode() == 127 || said.contains("not found")) {
      missing.add(tool + ": not installed on this machine");
    } else {
      missing.add(tool + ": not permitted here (" + said + ")");
    }
    return false;
  }

  private static String firstLine(String text) {
    for (String line : text.split("\n")) {
      if (!line.trim().isEmpty()) {
        return line.trim().length() > 200 ? line.trim().substring(0, 200) : line.trim();
      }
    }
    return "no message";
  }
}
