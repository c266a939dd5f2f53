package org.perftrack.agent;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.perftrack.agent.shell.TargetShell;

/**
 * What the agent takes from the machine it runs on; tests pass their own.
 *
 * @param environment looks an environment variable up (null when unset)
 * @param home the user's home directory (the default spool is {@code home/.perftrack/spool})
 */
public record AgentContext(UnaryOperator<String> environment, Path home, boolean windowsHost) {

  public static AgentContext system() {
    return new AgentContext(System::getenv, Path.of(System.getProperty("user.home")), TargetShell.hostIsWindows());
  }

  public String hostName() {
    for (String variable : new String[] {"COMPUTERNAME", "HOSTNAME"}) {
      String value = environment.apply(variable);
      if (value != null && !value.isBlank()) {
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
