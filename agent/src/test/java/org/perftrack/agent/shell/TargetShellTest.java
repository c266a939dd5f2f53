package org.perftrack.agent.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetShellTest {

  private final TargetShell cygwin = new TargetShell(
      List.of("C:\\Program Files\\cygwin-1.5.19\\bin\\bash.exe", "--login", "-c"), Map.of("CYGWIN", "nodosfilewarning"), true);

  @Test
  void windowsCommandKeepsTheShellPathAndPassesTheScriptAsOneArgument() {
    List<String> command = cygwin.command("C:\\Users\\Lab User\\.perftrack\\work\\1-1.5.19-4", "./fork sample 100");

    assertThat(command).hasSize(4);
    assertThat(command.subList(0, 3))
        .containsExactly("C:\\Program Files\\cygwin-1.5.19\\bin\\bash.exe", "--login", "-c");
    assertThat(command.get(3)).isEqualTo("cd 'C:/Users/Lab User/.perftrack/work/1-1.5.19-4' && ./fork sample 100");
  }

  @Test
  void windowsScriptHasNoBackslashOrDoubleQuoteThatJavasWindowsLauncherWouldMangle() {
    String script = cygwin.command("D:\\perf work\\\"odd\"\\2-x", "bash build.sh fork.c").get(3);

    assertThat(script).doesNotContain("\\").startsWith("cd 'D:/perf work/");
  }

  @Test
  void posixPathsStayAsTheyAre() {
    TargetShell linux = new TargetShell(List.of("/bin/bash", "-c"), Map.of(), false);

    assertThat(linux.command("/home/lab/.perftrack/work/1-a b", "./null_call sample 5"))
        .containsExactly("/bin/bash", "-c", "cd '/home/lab/.perftrack/work/1-a b' && ./null_call sample 5");
  }

  @Test
  void singleQuotesInsidePathsAreEscapedForTheShell() {
    assertThat(TargetShell.quote("/tmp/it's")).isEqualTo("'/tmp/it'\\''s'");
  }
}
