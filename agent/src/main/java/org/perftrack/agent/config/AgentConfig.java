package org.perftrack.agent.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The agent's config file (DESIGN.md "Agent"), after {@code ${ENV}} expansion. Command-line options
 * override it field by field; null means "not set here".
 *
 * @param machine the machine name to report (default: the host name)
 * @param benchmarks the benchmarks to run (default: the whole suite)
 * @param spool where runs wait until the server has them (default: ~/.perftrack/spool), and how many days sent
 *     runs stay there (default 7)
 * @param workDir where each target's suite is compiled and run (default: ~/.perftrack/work)
 * @param discover folders whose subfolders are targets ({@code serve} looks again before every job)
 * @param heartbeat seconds between {@code serve}'s heartbeats (default 60)
 * @param noisyCv the coefficient of variation, in percent, above which a benchmark's samples are too noisy to
 *     trust (default {@code 10})
 */
public final class AgentConfig {
  private final String server;
  private final String token;
  private final String product;
  private final String machine;
  private final Integer repetitions;
  private final Double scale;
  private final List<String> benchmarks;
  private final List<TargetConfig> targets;
  private final SpoolConfig spool;
  private final String workDir;
  private final List<DiscoverConfig> discover;
  private final Integer heartbeat;
  private final Double noisyCv;

  @JsonCreator
  public AgentConfig(
      @JsonProperty("server") String server,
      @JsonProperty("token") String token,
      @JsonProperty("product") String product,
      @JsonProperty("machine") String machine,
      @JsonProperty("repetitions") Integer repetitions,
      @JsonProperty("scale") Double scale,
      @JsonProperty("benchmarks") List<String> benchmarks,
      @JsonProperty("targets") List<TargetConfig> targets,
      @JsonProperty("spool") SpoolConfig spool,
      @JsonProperty("workDir") String workDir,
      @JsonProperty("discover") List<DiscoverConfig> discover,
      @JsonProperty("heartbeat") Integer heartbeat,
      @JsonProperty("noisyCv") Double noisyCv) {
    benchmarks = benchmarks == null ? null : Collections.unmodifiableList(new ArrayList<>(benchmarks));
    targets = targets == null ? Collections.emptyList() : Collections.unmodifiableList(new ArrayList<>(targets));
    this.server = server;
    this.token = token;
    this.product = product;
    this.machine = machine;
    this.repetitions = repetitions;
    this.scale = scale;
    this.benchmarks = benchmarks;
    this.targets = targets;
    this.spool = spool;
    this.workDir = workDir;
    this.discover = discover == null ? Collections.<DiscoverConfig>emptyList()
        : Collections.unmodifiableList(new ArrayList<>(discover));
    this.heartbeat = heartbeat;
    this.noisyCv = noisyCv;
  }

  public String server() {
    return server;
  }

  public String token() {
    return token;
  }

  public String product() {
    return product;
  }

  public String machine() {
    return machine;
  }

  public Integer repetitions() {
    return repetitions;
  }

  public Double scale() {
    return scale;
  }

  public List<String> benchmarks() {
    return benchmarks;
  }

  public List<TargetConfig> targets() {
    return targets;
  }

  public String spool() {
    return spool == null ? null : spool.dir;
  }

  /** Days sent runs stay in the spool ({@code spool: {keep-sent: N}}); null: not set here. */
  public Integer keepSent() {
    return spool == null ? null : spool.keepSent;
  }

  public String workDir() {
    return workDir;
  }

  public List<DiscoverConfig> discover() {
    return discover;
  }

  public Integer heartbeat() {
    return heartbeat;
  }

  public Double noisyCv() {
    return noisyCv;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof AgentConfig)) {
      return false;
    }
    AgentConfig o = (AgentConfig) other;
    return Objects.equals(server, o.server) && Objects.equals(token, o.token) && Objects.equals(product, o.product) && Objects.equals(machine, o.machine) && Objects.equals(repetitions, o.repetitions) && Objects.equals(scale, o.scale) && Objects.equals(benchmarks, o.benchmarks) && Objects.equals(targets, o.targets) && Objects.equals(spool, o.spool) && Objects.equals(workDir, o.workDir)
        && Objects.equals(discover, o.discover) && Objects.equals(heartbeat, o.heartbeat)
        && Objects.equals(noisyCv, o.noisyCv);
  }

  @Override
  public int hashCode() {
    return Objects.hash(server, token, product, machine, repetitions, scale, benchmarks, targets, spool, workDir, discover, heartbeat, noisyCv);
  }

  @Override
  public String toString() {
    return "AgentConfig[server=" + server + ", token=" + token + ", product=" + product + ", machine=" + machine + ", repetitions=" + repetitions + ", scale=" + scale + ", benchmarks=" + benchmarks + ", targets=" + targets + ", spool=" + spool + ", workDir=" + workDir
        + ", discover=" + discover + ", heartbeat=" + heartbeat + ", noisyCv=" + noisyCv + "]";
  }
}
