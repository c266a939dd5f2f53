package org.perftrack.agent.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.agent.config.ConfigException;
import org.perftrack.agent.config.ConfigLoader;

/**
 * Issue 17, item 6: on Windows the agent's argv becomes one command line (built by the JDK's
 * {@code ProcessImpl}), which the Cygwin DLL in {@code bash.exe} splits again ({@code dcrt0.cc}
 * {@code build_argv}/{@code quoted}/{@code globify}). Both are re-implemented here, small, to check the
 * round trip of the scripts the agent builds, and that what the config validator refuses would not
 * survive it.
 */
class WindowsCommandLineTest {

  private static final TargetShell CYGWIN = new TargetShell(
      List.of("C:\\Program Files\\cygwin-1.5.19\\bin\\bash.exe", "--login", "-c"), Map.of(), true);

  /**
   * JDK 8 and 17 {@code ProcessImpl.createCommandLine} in its default (legacy) verification: the
   * executable quoted when it has a space; each argument wrapped in double quotes when it contains a space,
   * tab, {@code < > & | ^} and is not already quoted at both ends, a trailing backslash doubled; inner
   * double quotes are NOT escaped.
   */
  static String jdkCommandLine(List<String> argv) {
    StringBuilder line = new StringBuilder();
    String exe = argv.get(0);
    line.append(exe.indexOf(' ') >= 0 && !exe.startsWith("\"") ? "\"" + exe + "\"" : exe);
    for (String arg : argv.subList(1, argv.size())) {
      line.append(' ');
      boolean quoted = arg.length() >= 2 && arg.startsWith("\"") && arg.endsWith("\"");
      boolean needs = arg.isEmpty() || (!quoted && arg.chars().anyMatch(c -> " \t<>&|^".indexOf(c) >= 0));
      if (needs) {
        line.append('"').append(arg).append(arg.endsWith("\\") ? "\\" : "").append('"');
      } else {
        line.append(arg);
      }
    }
    return line.toString();
  }

  /**
   * Cygwin's {@code build_argv} for a process started by a non-Cygwin parent ({@code winshell}): words
   * split at blanks, {@code "…"} and {@code '…'} regions kept together ({@code quoted}); the first word
   * loses its quotes; every later word goes through {@code globify}, which (with no file matching, as
   * for our scripts) removes the quotes and, inside them, reads {@code \\} as {@code \} and {@code \"} as
   * {@code "}. (An unquoted word starting with {@code @} would name a response file; ours never do.)
   */
  static List<String> cygwinArgv(String line) {
    List<String> argv = new ArrayList<>();
    int i = 0;
    while (i < line.length()) {
      if (isSep(line.charAt(i))) {
        i++;
        continue;
      }
      int start = i;
      while (i < line.length() && !isSep(line.charAt(i))) {
        char c = line.charAt(i);
        i = c == '"' || c == '\'' ? skipQuoted(line, i) : i + 1;
      }
      String word = line.substring(start, i);
      argv.add(argv.isEmpty() ? word.replace("\"", "") : globify(word));
    }
    return argv;
  }

  private static boolean isSep(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  /** {@code quoted}: past the closing quote; in "…", a backslash takes the next character along. */
  private static int skipQuoted(String line, int at) {
    char quote = line.charAt(at);
    int i = at + 1;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (quote == '"' && c == '\\') {
        i += 2;
      } else if (c == quote && quote == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
        i += 2;
      } else if (c == quote) {
        return i + 1;
      } else {
        i++;
      }
    }
    return line.length();
  }

  /** {@code globify} without a match: quotes removed; inside them {@code \\} and {@code \<quote>} lose the backslash. */
  private static String globify(String word) {
    if (!word.startsWith("~") && word.chars().noneMatch(c -> "?*[\"'(){}".indexOf(c) >= 0)) {
      return word;
    }
    StringBuilder out = new StringBuilder();
    for (int s = 0; s < word.length(); s++) {
      char c = word.charAt(s);
      if (c != '"' && c != '\'') {
        out.append(c);
        continue;
      }
      char quote = c;
      while (++s < word.length() && word.charAt(s) != quote) {
        if (word.charAt(s) == '\\' && s + 1 < word.length()
            && (word.charAt(s + 1) == quote || word.charAt(s + 1) == '\\')) {
          s++;
        }
        out.append(word.charAt(s));
      }
    }
    return out.toString();
  }

  private static List<String> roundTrip(List<String> argv) {
    return cygwinArgv(jdkCommandLine(argv));
  }

  @Test
  void theScriptsTheAgentBuildsSurviveTheRoundTrip() {
    for (String script : List.of("./fork sample 100", "bash build.sh null_call.c fork.c", "bash probe.sh",
        "./pipe_bw calibrate 0.5 4096", "./shell sample 20 builtins.sh us")) {
      List<String> argv = CYGWIN.command("C:\\Users\\Lab User\\.perftrack\\work\\1-1.5.19-4", script);
      assertThat(roundTrip(argv)).as(script).isEqualTo(argv);
    }
  }

  @Test
  void theVersionScriptSurvivesTheRoundTrip() {
    List<String> argv = new ArrayList<>(CYGWIN.prefix());
    argv.add(org.perftrack.agent.TargetFactoryAccess.versionScript("uname -r | sed 's/(.*//'"));

    assertThat(roundTrip(argv)).isEqualTo(argv);
  }

  @Test
  void aDoubleQuoteOrADoubleBackslashInAScriptDoesNotSurviveIt() {
    List<String> quote = List.of("bash.exe", "--login", "-c", "echo \"a b\" > x");
    List<String> backslashes = List.of("bash.exe", "--login", "-c", "printf '%s\\\\n' a b");

    assertThat(roundTrip(quote).get(3)).isNotEqualTo(quote.get(3));
    assertThat(roundTrip(quote)).hasSizeGreaterThan(4);
    assertThat(roundTrip(backslashes).get(3)).isEqualTo("printf '%s\\n' a b");
  }

  @Test
  void theConfigValidatorRefusesWhatWouldNotSurvive() {
    ConfigLoader loader = new ConfigLoader(name -> null);
    String target = "targets:\n  - shell: ['C:\\cygwin\\bin\\bash.exe', --login, -c]\n    versionCommand: ";

    assertThatThrownBy(() -> loader.parse(target + "'echo \"1.5.24\"'\n", "agent.yml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("targets[0].versionCommand' contains a double quote");
    assertThatThrownBy(() -> loader.parse(target + "'printf ''%s\\\\n'' 1.5'\n", "agent.yml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("targets[0].versionCommand' contains \\\\");
    assertThatThrownBy(() -> loader.parse("workDir: 'C:\\perf \"work\"'\n" + target + "uname -r\n", "agent.yml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("field 'workDir' contains a double quote");
  }
}
