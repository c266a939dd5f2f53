package org.perftrack.agent.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How to run a script inside one target: its shell command prefix, its extra environment, and how
 * the target spells the host's paths.
 *
 * <p>Scripts use single quotes only: Java's Windows process launcher wraps an argument containing
 * spaces in double quotes and does not escape ones inside it, so a double quote would break the
 * command line that {@code bash.exe} receives.
 *
 * @param prefix e.g. {@code ["/bin/bash", "-c"]} or {@code ["C:\\cygwin\\bin\\bash.exe", "--login", "-c"]}
 * @param windowsPaths whether the host is Windows, whose {@code C:\dir} paths Cygwin reads as {@code C:/dir}
 */
public record TargetShell(List<String> prefix, Map<String, String> env, boolean windowsPaths) {

  public TargetShell {
    prefix = List.copyOf(prefix);
    env = Map.copyOf(env);
  }

  public static boolean hostIsWindows() {
    return System.getProperty("os.name", "").startsWith("Windows");
  }

  /** The command that runs {@code script} with the host directory {@code workDir} as current directory. */
  public List<String> command(String workDir, String script) {
    List<String> command = new ArrayList<>(prefix);
    command.add("cd " + quote(targetPath(workDir)) + " && " + script);
    return command;
  }

  /**
   * The host path as the target's shell reads it. A login shell starts in $HOME, hence the explicit
   * cd; Cygwin takes mixed paths ({@code C:/Program Files/x}) of any version, backslashes it would eat.
   */
  public String targetPath(String hostPath) {
    return windowsPaths ? hostPath.replace('\\', '/') : hostPath;
  }

  /** A single-quoted shell word: nothing inside is expanded. */
  public static String quote(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
