package org.perftrack.agent;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.perftrack.agent.shell.TargetShell;

/**
 * What the agent takes from the machine it runs on; tests pass their own.
 *
 * @param environment looks an environment variable up (null when unset)
 * @param home the user's home directory (the default spool is {@code home/.perftrack/spool})
 */
public final class AgentContext {
  private final UnaryOperator<String> environment;
  private final Path home;
  private final boolean windowsHost;

  public AgentContext(UnaryOperator<String> environment, Path home, boolean windowsHost) {
    this.environment = environment;
    this.home = home;
    this.windowsHost = windowsHost;
  }

  public UnaryOperator<String> environment() {
    return environment;
  }

  public Path home() {
    return home;
  }

  /** The agent's own folder: {@code home/.perftrack}, where the spool and the work folder are by default. */
  public Path agentHome() {
    return home.resolve(".perftrack");
  }

  public boolean windowsHost() {
    return windowsHost;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof AgentContext)) {
      return false;
    }
    AgentContext o = (AgentContext) other;
    return Objects.equals(environment, o.environment) && Objects.equals(home, o.home) && windowsHost == o.windowsHost;
  }

  @Override
  public int hashCode() {
    return Objects.hash(environment, home, windowsHost);
  }

  @Override
  public String toString() {
    return "AgentContext[environment=" + environment + ", home=" + home + ", windowsHost=" + windowsHost + "]";
  }

  public static AgentContext system() {
    return new AgentContext(System::getenv, Paths.get(System.getProperty("user.home")), TargetShell.hostIsWindows());
  }

  public String hostName() {
    for (String variable : new String[] {"COMPUTERNAME", "HOSTNAME"}) {
      String value = environment.apply(variable);
      if (value != null && !value.trim().isEmpty()) {
        return value;
      }
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
