package org.perftrack.agent.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One installation of the layer to measure: a shell command prefix that runs a script inside it.
 *
 * @param name a short label for the console and the work directory (default: the version)
 * @param version the version measured, or null when {@code versionCommand} tells it
 * @param versionCommand a command run through the shell whose output is the version ("uname -r")
 * @param shell the command prefix, e.g. {@code ["C:\\cygwin-1.5.19\\bin\\bash.exe", "--login", "-c"]}
 * @param env variables added to the target's environment
 */
public final class TargetConfig {
  private final String name;
  private final String version;
  private final String versionCommand;
  private final List<String> shell;
  private final Map<String, String> env;

  @JsonCreator
  public TargetConfig(
      @JsonProperty("name") String name,
      @JsonProperty("version") String version,
      @JsonProperty("versionCommand") String versionCommand,
      @JsonProperty("shell") List<String> shell,
      @JsonProperty("env") Map<String, String> env) {
    shell = shell == null ? Collections.emptyList() : Collections.unmodifiableList(new ArrayList<>(shell));
    env = env == null ? Collections.emptyMap() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
    this.name = name;
    this.version = version;
    this.versionCommand = versionCommand;
    this.shell = shell;
    this.env = env;
  }

  public String name() {
    return name;
  }

  public String version() {
    return version;
  }

  public String versionCommand() {
    return versionCommand;
  }

  public List<String> shell() {
    return shell;
  }

  public Map<String, String> env() {
    return env;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof TargetConfig)) {
      return false;
    }
    TargetConfig o = (TargetConfig) other;
    return Objects.equals(name, o.name) && Objects.equals(version, o.version) && Objects.equals(versionCommand, o.versionCommand) && Objects.equals(shell, o.shell) && Objects.equals(env, o.env);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, version, versionCommand, shell, env);
  }

  @Override
  public String toString() {
    return "TargetConfig[name=" + name + ", version=" + version + ", versionCommand=" + versionCommand + ", shell=" + shell + ", env=" + env + "]";
  }
}
