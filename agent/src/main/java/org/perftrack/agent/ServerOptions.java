package org.perftrack.agent;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.ConfigException;
import org.perftrack.agent.config.ConfigLoader;
import org.perftrack.agent.upload.Retry;
import org.perftrack.agent.upload.ServerUrl;
import org.perftrack.agent.upload.Spool;
import org.perftrack.agent.upload.Spools;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Where results go: shared by {@code run} and {@code upload}. Options beat the config file, which beats the environment. */
final class ServerOptions {

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(names = "--config", paramLabel = "FILE", description = "agent config file (YAML, see README)")
  Path config;

  @Option(names = "--server", paramLabel = "URL", description = "perftrack server, e.g. http://localhost:8080 (env PERFTRACK_SERVER)")
  String server;

  @Option(names = "--token", paramLabel = "TOKEN", description = "API token (env PERFTRACK_TOKEN)")
  String token;

  @Option(names = "--spool", paramLabel = "DIR", description = "where runs wait until the server has them (default ~/.perftrack/spool)")
  Path spool;

  @Option(names = "--fail-on-regression", description = "exit with 3 when the server reports regressions"
      + " (a step in the build just uploaded too, before a later build confirms it)")
  boolean failOnRegression;

  @Option(names = "--fail-on", paramLabel = "WHEN", converter = FailOn.Converter.class,
      description = "regression: as --fail-on-regression; confirmed: exit with 3 only for regressions a later build"
          + " confirmed (the build after the culprit fails)")
  FailOn failOn;

  FailOn failOn() {
    return failOn != null ? failOn : failOnRegression ? FailOn.REGRESSION : FailOn.NEVER;
  }

  @Option(names = "--retry-attempts", hidden = true, defaultValue = "6")
  int retryAttempts;

  @Option(names = "--retry-delay-ms", hidden = true, defaultValue = "1000")
  long retryDelayMs;

  /** The config file given with {@code --config}; null without one. */
  AgentConfig config(AgentContext context) throws ConfigException {
    return config == null ? null : new ConfigLoader(context.environment()).load(config);
  }

  /** A usage error naming what is missing when there is no server or no token to send to. */
  void require(String url, String token) {
    if (url == null || token == null) {
      throw new ParameterException(command.commandLine(), missing(url, token));
    }
  }

  /** The server's address; one that is no http(s) URL is a usage error at once, before anything is measured. */
  String server(AgentConfig config, AgentContext context) {
    String url = first(server, config == null ? null : config.server(), context.environment().apply("PERFTRACK_SERVER"));
    String problem = url == null ? null : ServerUrl.problem(url);
    if (problem != null) {
      throw new ParameterException(command.commandLine(), "--server (or 'server:', PERFTRACK_SERVER): " + problem);
    }
    return url;
  }

  String token(AgentConfig config, AgentContext context) {
    return first(token, config == null ? null : config.token(), context.environment().apply("PERFTRACK_TOKEN"));
  }

  Path spool(AgentConfig config, AgentContext context) {
    return spoolRoot(spool, config, context);
  }

  /** The spool folder: {@code --spool}, else the config's, else {@code ~/.perftrack/spool}. */
  static Path spoolRoot(Path option, AgentConfig config, AgentContext context) {
    if (option != null) {
      return option;
    }
    if (config != null && config.spool() != null) {
      return Paths.get(config.spool());
    }
    return context.agentHome().resolve("spool");
  }

  /** The part of the spool that waits for {@code url}; sent runs stay for the config's keep-sent days (default 7). */
  Spool spool(AgentConfig config, AgentContext context, String url) {
    return new Spool(spool(config, context), url, keepSent(config));
  }

  static int keepSent(AgentConfig config) {
    return config != null && config.keepSent() != null ? config.keepSent() : Spools.KEEP_SENT_DAYS;
  }

  Retry retry() {
    return new Retry(Math.max(1, retryAttempts), Duration.ofMillis(retryDelayMs), Duration.ofSeconds(30));
  }

  /** The usage error for a missing server and/or token, naming just what is missing and where else it can come from. */
  static String missing(String server, String token) {
    if (server == null && token == null) {
      return "Missing --server and --token (or the config file's 'server:'/'token:', or PERFTRACK_SERVER/PERFTRACK_TOKEN)";
    }
    return server == null ? "Missing --server (or the config file's 'server:', or PERFTRACK_SERVER)"
        : "Missing --token (or the config file's 'token:', or PERFTRACK_TOKEN)";
  }

  static String first(String... values) {
    for (String v : values) {
      if (v != null && !v.trim().isEmpty()) {
        return v;
      }
    }
    return null;
  }
}
