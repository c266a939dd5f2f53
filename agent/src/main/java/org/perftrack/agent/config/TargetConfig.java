package org.perftrack.agent.config;

import java.util.List;
import java.util.Map;

/**
 * One installation of the layer to measure: a shell command prefix that runs a script inside it.
 *
 * @param name a short label for the console and the work directory (default: the version)
 * @param version the version measured, or null when {@code versionCommand} tells it
 * @param versionCommand a command run through the shell whose output is the version ("uname -r")
 * @param shell the command prefix, e.g. {@code ["C:\\cygwin-1.5.19\\bin\\bash.exe", "--login", "-c"]}
 * @param env variables added to the target's environment
 */
public record TargetConfig(
    String name, String version, String versionCommand, List<String> shell, Map<String, String> env) {

  public TargetConfig {
    shell = shell == null ? List.of() : List.copyOf(shell);
    env = env == null ? Map.of() : Map.copyOf(env);
  }
}
