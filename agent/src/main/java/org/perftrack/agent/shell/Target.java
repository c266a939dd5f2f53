package org.perftrack.agent.shell;

import java.nio.file.Path;

/**
 * One installation being measured in this session.
 *
 * @param name the label on the console
 * @param version the version of the layer (resolved, never null)
 * @param workDir the host directory where its copy of the suite is built and run
 */
public record Target(String name, String version, TargetShell shell, Path workDir) {

  public java.util.List<String> command(String script) {
    return shell.command(workDir.toAbsolutePath().toString(), script);
  }
}
