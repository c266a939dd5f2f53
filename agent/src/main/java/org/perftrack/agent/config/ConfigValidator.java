package org.perftrack.agent.config;

import java.util.List;
import org.perftrack.agent.suite.Suite;

/** The checks a parsed config must pass; each message names the file and the field. */
final class ConfigValidator {

  private ConfigValidator() {}

  static void check(AgentConfig config, String source) throws ConfigException {
    if (config.repetitions() != null && config.repetitions() < 1) {
      throw new ConfigException(source + ": field 'repetitions' must be at least 1, not " + config.repetitions());
    }
    if (config.scale() != null && !(config.scale() > 0 && config.scale() <= 100)) {
      throw new ConfigException(source + ": field 'scale' must be above 0 and at most 100, not " + config.scale());
    }
    if (config.noisyCv() != null && !(config.noisyCv() > 0)) {
      throw new ConfigException(source + ": field 'noisyCv' must be above 0 (a percentage, e.g. 10), not "
          + config.noisyCv());
    }
    if (config.benchmarks() != null) {
      try {
        Suite.select(config.benchmarks());
      } catch (IllegalArgumentException e) {
        throw new ConfigException(source + ": field 'benchmarks': " + e.getMessage());
      }
    }
    if (config.keepSent() != null && config.keepSent() < 0) {
      throw new ConfigException(source + ": field 'spool.keep-sent' must be 0 or more (days), not " + config.keepSent());
    }
    if (config.heartbeat() != null && config.heartbeat() < 1) {
      throw new ConfigException(source + ": field 'heartbeat' must be at least 1 (seconds), not " + config.heartbeat());
    }
    if (config.targets().isEmpty() && config.discover().isEmpty()) {
      throw new ConfigException(source + ": field 'targets' is missing or empty: list at least one target with a shell"
          + " (or folders of targets under 'discover')");
    }
    // the work directory is the target of each script's cd
    refuseDoubleQuote(source + ": field 'workDir'", config.workDir());
    checkTargets(config.targets(), source);
    checkDiscover(config.discover(), source);
  }

  private static void checkDiscover(List<DiscoverConfig> discover, String source) throws ConfigException {
    for (int i = 0; i < discover.size(); i++) {
      DiscoverConfig d = discover.get(i);
      String field = source + ": field 'discover[" + i + "]";
      if (d == null || d.glob == null || d.glob.trim().isEmpty()) {
        throw new ConfigException(field + ".glob' must name the folders, e.g. /opt/layers/*");
      }
      if (d.shell == null || d.shell.isEmpty() || d.shell.stream().anyMatch(s -> s == null || s.trim().isEmpty())) {
        throw new ConfigException(field + ".shell' must list the shell command, e.g. [\"{path}/bin/bash\", \"-c\"]");
      }
      boolean hasVersion = d.version != null && !d.version.trim().isEmpty();
      boolean hasCommand = d.versionCommand != null && !d.versionCommand.trim().isEmpty();
      if (hasVersion == hasCommand) {
        throw new ConfigException(field + "' needs exactly one of 'version' (e.g. \"{name}\") and 'versionCommand'");
      }
    }
  }

  private static void checkTargets(List<TargetConfig> targets, String source) throws ConfigException {
    for (int i = 0; i < targets.size(); i++) {
      TargetConfig t = targets.get(i);
      String field = source + ": field 'targets[" + i + "]";
      if (t == null) {
        throw new ConfigException(field + "' is empty");
      }
      if (t.shell().isEmpty() || t.shell().stream().anyMatch(s -> s == null || s.trim().isEmpty())) {
        throw new ConfigException(field + ".shell' must list the shell command, e.g. [\"/bin/bash\", \"-c\"]");
      }
      boolean hasVersion = t.version() != null && !t.version().trim().isEmpty();
      boolean hasCommand = t.versionCommand() != null && !t.versionCommand().trim().isEmpty();
      if (hasVersion == hasCommand) {
        throw new ConfigException(field + "' needs exactly one of 'version' and 'versionCommand'");
      }
      for (int k = 0; k < t.shell().size(); k++) {
        refuseDoubleQuote(field + ".shell[" + k + "]'", t.shell().get(k));
      }
      if (hasCommand) {
        refuseDoubleQuote(field + ".versionCommand'", t.versionCommand());
        if (t.versionCommand().contains("\\\\")) {
          throw new ConfigException(field + ".versionCommand' contains \\\\: on Windows the command travels inside "
              + "double quotes, where Cygwin reads \\\\ as one backslash; write it another way");
        }
      }
    }
  }

  /**
   * On Windows the agent starts the target's shell through a command line that Java quotes without
   * escaping inner double quotes, and Cygwin splits it again: a {@code "} would end the argument early
   * and silently change the command. Scripts use single quotes instead.
   */
  private static void refuseDoubleQuote(String field, String value) throws ConfigException {
    if (value != null && value.indexOf('"') >= 0) {
      throw new ConfigException(field + " contains a double quote (\"): on Windows it would cut the command line "
          + "the shell receives; use single quotes");
    }
  }
}
