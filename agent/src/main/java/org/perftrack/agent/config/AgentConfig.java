package org.perftrack.agent.config;

import java.util.List;

/**
 * The agent's config file (DESIGN.md "Agent"), after {@code ${ENV}} expansion. Command-line options
 * override it field by field; null means "not set here".
 *
 * @param machine the machine name to report (default: the host name)
 * @param benchmarks the benchmarks to run (default: the whole suite)
 * @param spool where runs wait until the server has them (default: ~/.perftrack/spool)
 * @param workDir where each target's suite is compiled and run (default: ~/.perftrack/work)
 * @param discover folders whose subfolders are targets ({@code serve} looks again before every job)
 * @param heartbeat seconds between {@code serve}'s heartbeats (default 60)
 */
public record AgentConfig(
    String server,
    String token,
    String product,
    String machine,
    Integer repetitions,
    Double scale,
    List<String> benchmarks,
    List<TargetConfig> targets,
    String spool,
    String workDir,
    List<DiscoverConfig> discover,
    Integer heartbeat) {

  public AgentConfig {
    benchmarks = benchmarks == null ? null : List.copyOf(benchmarks);
    targets = targets == null ? List.of() : List.copyOf(targets);
    discover = discover == null ? List.of() : List.copyOf(discover);
  }
}
