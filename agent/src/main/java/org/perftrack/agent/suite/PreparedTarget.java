package org.perftrack.agent.suite;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.perftrack.agent.shell.Target;

/**
 * A target whose suite is extracted and compiled.
 *
 * @param environment what the probe found inside the target (uname, cpu, compiler, mount flags…)
 * @param buildFailures program → the compiler's complaint, for programs that did not compile
 */
public final class PreparedTarget {
  private final Target target;
  private final Map<String, String> environment;
  private final Map<String, String> buildFailures;

  public PreparedTarget(Target target, Map<String, String> environment, Map<String, String> buildFailures) {
    environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    buildFailures = Collections.unmodifiableMap(new LinkedHashMap<>(buildFailures));
    this.target = target;
    this.environment = environment;
    this.buildFailures = buildFailures;
  }

  public Target target() {
    return target;
  }

  public Map<String, String> environment() {
    return environment;
  }

  public Map<String, String> buildFailures() {
    return buildFailures;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof PreparedTarget)) {
      return false;
    }
    PreparedTarget o = (PreparedTarget) other;
    return Objects.equals(target, o.target) && Objects.equals(environment, o.environment) && Objects.equals(buildFailures, o.buildFailures);
  }

  @Override
  public int hashCode() {
    return Objects.hash(target, environment, buildFailures);
  }

  @Override
  public String toString() {
    return "PreparedTarget[target=" + target + ", environment=" + environment + ", buildFailures=" + buildFailures + "]";
  }
}
