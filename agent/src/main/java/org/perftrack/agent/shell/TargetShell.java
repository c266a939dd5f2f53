package org.perftrack.agent.shell;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
public final class TargetShell {
  private final List<String> prefix;
  private final Map<String, String> env;
  private final boolean windowsPaths;

  public TargetShell(List<String> prefix, Map<String, String> env, boolean windowsPaths) {
    prefix = Collections.unmodifiableList(new ArrayList<>(prefix));
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
    this.prefix = prefix;
    this.env = env;
    this.windowsPaths = windowsPaths;
  }

  public List<String> prefix() {
    return prefix;
  }

  public Map<String, String> env() {
    return env;
  }

  public boolean windowsPaths() {
    return windowsPaths;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof TargetShell)) {
      return false;
    }
    TargetShell o = (TargetShell) other;
    return Objects.equals(prefix, o.prefix) && Objects.equals(env, o.env) && windowsPaths == o.windowsPaths;
  }

  @Override
  public int hashCode() {
    return Objects.hash(prefix, env, windowsPaths);
  }

  @Override
  public String toString() {
    return "TargetShell[prefix=" + prefix + ", env=" + env + ", windowsPaths=" + windowsPaths + "]";
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
