package org.perftrack.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.suite.PreparedTarget;
import org.perftrack.agent.suite.Suite;
import org.perftrack.agent.suite.TargetSetup;

/**
 * Issue 17, items 3 and 5: what a Cygwin target on Windows does to the output the agent reads, simulated
 * with wrapper shells: a first {@code --login} prints a banner before the command's output, and a
 * text-mode mount (or a suite checked out with CRLF) ends lines with CR LF.
 */
class WindowsShellsTest {

  @TempDir
  Path dir;

  /** A shell prefix [wrapper, -c]: the wrapper runs {@code bash -c SCRIPT} after {@code before}, output through {@code filter}. */
  private List<String> shell(String name, String before, String filter) throws Exception {
    Path wrapper = dir.resolve(name);
    Files.writeString(wrapper, "#!/bin/bash\n" + before + "\n/bin/bash -c \"$2\" | " + filter + "\nexit ${PIPESTATUS[0]}\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    return List.of(wrapper.toString(), "-c");
  }

  @Test
  void theVersionIsTheVersionCommandsOutputNotTheFirstLoginsBanner() throws Exception {
    List<String> login = shell("login.sh", "echo 'Copying skeleton files.'; echo 'These files are for the user"
        + " to personalise their cygwin experience.'; echo", "cat");
    TargetConfig config = new TargetConfig(null, null, "echo 1.5.24-2", login, Map.of());

    List<Target> targets = new TargetFactory(new ShellRunner(), false).create(List.of(config), dir.resolve("work"));

    assertThat(targets).singleElement().satisfies(t -> {
      assertThat(t.version()).isEqualTo("1.5.24-2");
      assertThat(t.name()).isEqualTo("1.5.24-2");
    });
  }

  @Test
  void aVersionCommandThatPrintsNothingIsAnErrorEvenAfterABanner() throws Exception {
    List<String> login = shell("login.sh", "echo 'Copying skeleton files.'", "cat");
    TargetConfig config = new TargetConfig(null, null, "true", login, Map.of());

    assertThat(org.assertj.core.api.Assertions.catchThrowable(() ->
        new TargetFactory(new ShellRunner(), false).create(List.of(config), dir.resolve("work"))))
        .isInstanceOf(AgentException.class).hasMessageContaining("versionCommand 'true' gave no version");
  }

  @Test
  void crlfOutputStillShowsWhichProgramsWereBuiltAndCarriesNoCarriageReturns() throws Exception {
    List<String> crlf = shell("crlf.sh", "", "sed 's/$/\\r/'");
    Target target = new Target("crlf", "1.5.24-2", new org.perftrack.agent.shell.TargetShell(crlf, Map.of(), false),
        dir.resolve("work"));

    PreparedTarget prepared = new TargetSetup(new ShellRunner()).prepare(target, Suite.select(List.of("null-call")));

    assertThat(prepared.buildFailures()).isEmpty();
    assertThat(prepared.environment()).containsKeys("compiler", "uname", "cores");
    assertThat(prepared.environment().values()).noneMatch(v -> v.contains("\r"));
  }

  @Test
  void outputInTheWindowsAnsiCodePageIsReadNotFatalAndItsCharsetIsRecorded() throws Exception {
    Path bytes = Files.write(dir.resolve("cp1252.txt"), "host caf\u00e9-lab\n".getBytes(Charset.forName("windows-1252")));

    ShellRunner.Result r = new ShellRunner(Files::deleteIfExists, Charset.forName("windows-1252"))
        .run(List.of("/bin/cat", bytes.toString()), Map.of(), java.time.Duration.ofSeconds(30));

    assertThat(r.ok()).isTrue();
    assertThat(r.stdout()).isEqualTo("host caf\u00e9-lab\n");
    assertThat(r.charset()).isEqualTo("windows-1252");
  }

  @Test
  void aFailedDeleteOfTheOutputFileLosesNothing() throws Exception {
    // on Windows a killed benchmark's child may still hold the file: DeleteFile fails with a sharing violation
    ShellRunner runner = new ShellRunner(file -> {
      throw new java.nio.file.FileSystemException(file.toString(), null,
          "The process cannot access the file because it is being used by another process");
    }, Charset.forName("windows-1252"));

    ShellRunner.Result first = runner.run(List.of("/bin/echo", "one"), Map.of(), java.time.Duration.ofSeconds(30));
    ShellRunner.Result timedOut = runner.run(List.of("/bin/sleep", "30"), Map.of(), java.time.Duration.ofMillis(200));
    ShellRunner.Result after = runner.run(List.of("/bin/echo", "two"), Map.of(), java.time.Duration.ofSeconds(30));

    assertThat(first.stdout()).isEqualTo("one\n");
    assertThat(first.charset()).isEqualTo("UTF-8");
    assertThat(timedOut.exitCode()).isEqualTo(-1);
    assertThat(timedOut.stderr()).contains("timed out");
    assertThat(after.stdout()).isEqualTo("two\n");
  }
}
