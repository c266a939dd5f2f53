package org.perftrack.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.shell.TargetShell;

/** Turns configured targets into runnable ones: resolves {@code versionCommand}, picks work directories. */
final class TargetFactory {

  private final ShellRunner runner;
  private final boolean windowsHost;

  TargetFactory(ShellRunner runner, boolean windowsHost) {
    this.runner = runner;
    this.windowsHost = windowsHost;
  }

  /** The target of a run without config: the local shell, its version from {@code uname -r}. */
  static TargetConfig localShell() {
    String bash = java.nio.file.Files.isExecutable(Paths.get("/bin/bash")) ? "/bin/bash" : "bash";
    return new TargetConfig("local", null, "uname -r", Arrays.asList(bash, "-c"), Collections.emptyMap());
  }

  List<Target> create(List<TargetConfig> configs, Path workRoot) throws AgentException, IOException, InterruptedException {
    List<Target> targets = new ArrayList<>();
    for (int i = 0; i < configs.size(); i++) {
      TargetConfig c = configs.get(i);
      TargetShell shell = new TargetShell(c.shell(), c.env(), windowsHost);
      String version = c.version() != null ? c.version().trim() : resolveVersion(c, shell, i);
      String name = c.name() != null && !c.name().trim().isEmpty() ? c.name() : version;
      Path workDir = workRoot.resolve((i + 1) + "-" + name.replaceAll("[^A-Za-z0-9._-]", "_"));
      String product = c.product() == null || c.product().trim().isEmpty() ? null : c.product().trim();
      targets.add(new Target(name, version, shell, workDir, product));
    }
    return targets;
  }

  private String resolveVersion(TargetConfig c, TargetShell shell, int index)
      throws AgentException, IOException, InterruptedException {
    List<String> command = new ArrayList<>(shell.prefix());
    command.add(versionScript(c.versionCommand()));
    ShellRunner.Result r;
    try {
      r = runner.run(command, shell.env(), Duration.ofMinutes(1));
    } catch (IOException e) {
      throw new AgentException("targets[" + index + "]: cannot start the shell " + shell.prefix() + ": " + e.getMessage());
    }
    String version = versionBetweenMarkers(r.stdout());
    if (!r.ok() || version.isEmpty()) {
      throw new AgentException("targets[" + index + "]: versionCommand '" + c.versionCommand()
          + "' gave no version: " + r.problem());
    }
    return version;
  }

  static final String VERSION_BEGIN = "perftrack-version-begin";
  static final String VERSION_END = "perftrack-version-end";

  /**
   * The version command between two marker lines: a first {@code --login} of a fresh Cygwin prints
   * "Copying skeleton files." (from /etc/profile) before it, which must not become the version.
   */
  static String versionScript(String versionCommand) {
    return "echo " + VERSION_BEGIN + "; " + versionCommand + "; echo " + VERSION_END;
  }

  /** The first non-blank line between the markers; empty when there is none. */
  static String versionBetweenMarkers(String stdout) {
    boolean inside = false;
    for (String line : stdout.split("\n")) {
      String text = line.trim();
      if (text.equals(VERSION_BEGIN)) {
        inside = true;
      } else if (text.equals(VERSION_END)) {
        return "";
      } else if (inside && !text.isEmpty()) {
        return text;
      }
    }
    return "";
  }
}
