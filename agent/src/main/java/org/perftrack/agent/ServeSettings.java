package org.perftrack.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.TargetConfig;
import org.perftrack.agent.shell.ShellRunner;
import org.perftrack.agent.shell.Target;
import org.perftrack.agent.upload.Retry;
import picocli.CommandLine.ParameterException;

/** What {@code serve} needs, resolved once from its options, the config and the environment; and its targets. */
final class ServeSettings {

  final AgentConfig config;
  final AgentContext context;
  final String server;
  final String token;
  final String product;
  final String machine;
  final int heartbeat;
  final int repetitions;
  final double scale;
  final Path spool;
  final int keepSent;
  final Path workDir;
  final Duration stepTimeout;
  final Retry retry;

  private ServeSettings(ServeCommand options, AgentConfig config, AgentContext context) {
    this.config = config;
    this.context = context;
    ServerOptions s = options.server;
    server = s.server(config, context);
    token = s.token(config, context);
    product = config.product();
    machine = ServerOptions.first(config.machine(), context.hostName());
    heartbeat = options.heartbeatSeconds != null ? options.heartbeatSeconds
        : config.heartbeat() != null ? config.heartbeat() : 60;
    repetitions = config.repetitions() != null ? config.repetitions() : 5;
    scale = config.scale() != null ? config.scale() : 1.0;
    spool = s.spool(config, context);
    keepSent = ServerOptions.keepSent(config);
    workDir = options.workDir != null ? options.workDir
        : config.workDir() != null ? Paths.get(config.workDir()) : context.agentHome().resolve("work");
    stepTimeout = Duration.ofSeconds(options.stepTimeoutSeconds);
    retry = s.retry();
  }

  /** The settings, or a usage error naming everything missing (server, token, product) or a heartbeat below 1 s. */
  static ServeSettings of(ServeCommand options, AgentConfig config, AgentContext context) {
    ServeSettings s = new ServeSettings(options, config, context);
    List<String> missing = new ArrayList<String>();
    if (s.server == null) {
      missing.add("the server (config 'server:' or --server)");
    }
    if (s.token == null) {
      missing.add("the token (config 'token:' or --token)");
    }
    if (s.product == null) {
      missing.add("the product (config 'product:')");
    }
    if (!missing.isEmpty()) {
      String last = missing.remove(missing.size() - 1);
      throw new ParameterException(options.spec.commandLine(), "serve needs "
          + (missing.isEmpty() ? "" : String.join(", ", missing) + " and ") + last);
    }
    if (s.heartbeat < 1) {
      throw new ParameterException(options.spec.commandLine(), "--heartbeat must be at least 1 second");
    }
    return s;
  }

  /** The targets now: the config's, then every discovered folder; versions resolved, in config order. */
  List<TargetConfig> targets() throws IOException, AgentException, InterruptedException {
    List<TargetConfig> configured = new ArrayList<TargetConfig>(config.targets());
    configured.addAll(Discovery.targets(config.discover()));
    List<Target> targets = new TargetFactory(new ShellRunner(), context.windowsHost()).create(configured, workDir);
    List<TargetConfig> resolved = new ArrayList<TargetConfig>();
    for (int i = 0; i < targets.size(); i++) {
      TargetConfig c = configured.get(i);
      resolved.add(new TargetConfig(c.name(), targets.get(i).version(), null, c.shell(), c.env()));
    }
    return resolved;
  }

  /** The versions the targets offer, each once, in their order. */
  static List<String> versions(List<TargetConfig> targets) {
    List<String> versions = new ArrayList<String>();
    for (TargetConfig t : targets) {
      if (!versions.contains(t.version())) {
        versions.add(t.version());
      }
    }
    return versions;
  }
}
