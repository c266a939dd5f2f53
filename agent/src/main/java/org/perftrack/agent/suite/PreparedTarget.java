package org.perftrack.agent.suite;

import java.util.Map;
import org.perftrack.agent.shell.Target;

/**
 * A target whose suite is extracted and compiled.
 *
 * @param environment what the probe found inside the target (uname, cpu, compiler, mount flags…)
 * @param buildFailures program → the compiler's complaint, for programs that did not compile
 */
public record PreparedTarget(Target target, Map<String, String> environment, Map<String, String> buildFailures) {

  public PreparedTarget {
    environment = Map.copyOf(environment);
    buildFailures = Map.copyOf(buildFailures);
  }
}
