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
      targets.add(new Target(name, version, shell, workDir));
    }
    return targets;
  }

  private String resolveVersion(TargetConfig c, TargetShell shell, int index)
      throws AgentException, IOException, InterruptedException {
    List<String> command = new ArrayList<>(shell.prefix());
    command.add(c.versionCommand());
    ShellRunner.Result r;
    try {
      r = runner.run(command, shell.env(), Duration.ofMinutes(1));
    } catch (IOException e) {
      throw new AgentException("targets[" + index + "]: cannot start the shell " + shell.prefix() + ": " + e.getMessage());
    }
    String version = r.stdout().trim().split("\\R", 2)[0].trim();
    if (!r.ok() || version.isEmpty()) {
      throw new AgentException("targets[" + index + "]: versionCommand '" + c.versionCommand()
          + "' gave no version: " + r.problem());
    }
    return version;
  }
}
