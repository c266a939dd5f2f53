package org.perftrack.agent.shell;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One installation being measured in this session.
 *
 * @param name the label on the console
 * @param version the version of the layer (resolved, never null)
 * @param workDir the host directory where its copy of the suite is built and run
 */
public final class Target {
  private final String name;
  private final String version;
  private final TargetShell shell;
  private final Path workDir;

  public Target(String name, String version, TargetShell shell, Path workDir) {
    this.name = name;
    this.version = version;
    this.shell = shell;
    this.workDir = workDir;
  }

  public String name() {
    return name;
  }

  public String version() {
    return version;
  }

  public TargetShell shell() {
    return shell;
  }

  public Path workDir() {
    return workDir;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Target)) {
      return false;
    }
    Target o = (Target) other;
    return Objects.equals(name, o.name) && Objects.equals(version, o.version) && Objects.equals(shell, o.shell) && Objects.equals(workDir, o.workDir);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, version, shell, workDir);
  }

  @Override
  public String toString() {
    return "Target[name=" + name + ", version=" + version + ", shell=" + shell + ", workDir=" + workDir + "]";
  }

  public java.util.List<String> command(String script) {
    return shell.command(workDir.toAbsolutePath().toString(), script);
  }
}
