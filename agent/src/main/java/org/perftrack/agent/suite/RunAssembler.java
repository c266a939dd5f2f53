package org.perftrack.agent.suite;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.BenchmarkFailure;
import org.perftrack.wire.RunUpload.MachineInfo;
import org.perftrack.wire.RunUpload.ResultUpload;

/** Turns one target's measurements into the run the server takes (one run = one version on one machine). */
public final class RunAssembler {

  /** @param attributes session-wide run attributes (scale, repetitions, agent version) */
  public static final class Session {
    private final String product;
    private final String machine;
    private final String batch;
    private final Map<String, String> attributes;

    public Session(String product, String machine, String batch, Map<String, String> attributes) {
      this.product = product;
      this.machine = machine;
      this.batch = batch;
      this.attributes = attributes;
    }

    public String product() {
      return product;
    }

    public String machine() {
      return machine;
    }

    public String batch() {
      return batch;
    }

    public Map<String, String> attributes() {
      return attributes;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Session)) {
        return false;
      }
      Session o = (Session) other;
      return Objects.equals(product, o.product) && Objects.equals(machine, o.machine)
          && Objects.equals(batch, o.batch) && Objects.equals(attributes, o.attributes);
    }

    @Override
    public int hashCode() {
      return Objects.hash(product, machine, batch, attributes);
    }

    @Override
    public String toString() {
      return "Session[product=" + product + ", machine=" + machine + ", batch=" + batch + ", attributes="
          + attributes + "]";
    }
  }

  /** Run attribute: the error that ended the session early (the run holds what finished before it). */
  public static final String STOPPED = "stopped-by";

  /** Probe keys with this prefix describe the machine, not the target. */
  static final String MACHINE_PREFIX = "machine.";

  private RunAssembler() {}

  public static RunUpload assemble(Measurements m, Session session) {
    PreparedTarget t = m.target();
    Map<String, String> attributes = new LinkedHashMap<>(session.attributes());
    t.environment().forEach((k, v) -> {
      if (!k.startsWith(MACHINE_PREFIX)) {
        attributes.put(k, v);
      }
    });
    attributes.put("target", t.target().name());
    attributes.put("shell", String.join(" ", t.target().shell().prefix()));
    t.target().shell().env().forEach((k, v) -> attributes.put("env." + k, v));
    if (m.interrupted()) {
      attributes.put("interrupted", "true");
    }
    if (m.stopped() != null) {
      attributes.put(STOPPED, m.stopped());
    }
    List<BenchmarkFailure> failures = new ArrayList<>();
    m.failures().forEach((name, message) -> failures.add(new BenchmarkFailure(name, clean(message))));
    attributes.replaceAll((k, v) -> clean(v));
    attributes.values().removeIf(v -> v.trim().isEmpty());
    String product = t.target().product() != null ? t.target().product() : session.product();
    return new RunUpload(UUID.randomUUID().toString(), product, t.target().version(),
        machine(session.machine(), t.environment()), Suite.NAME, session.batch(), m.startedAt(), m.finishedAt(),
        attributes, results(m), failures);
  }

  private static List<ResultUpload> results(Measurements m) {
    List<ResultUpload> results = new ArrayList<>();
    m.samples().forEach((b, samples) -> {
      results.add(new ResultUpload(b.name(), b.metric(), b.unit(), b.direction(), values(samples, Sample::value)));
      if (samples.stream().allMatch(s -> s.ctxtPerOp() >= 0)) {
        results.add(lower(b.name(), Benchmark.CTX_SWITCHES, "count", values(samples, Sample::ctxtPerOp)));
      }
      if (samples.stream().allMatch(s -> s.userPerOp() >= 0 && s.sysPerOp() >= 0)) {
        results.add(lower(b.name(), Benchmark.USER_CPU, b.cpuUnit(), values(samples, Sample::userPerOp)));
        results.add(lower(b.name(), Benchmark.SYS_CPU, b.cpuUnit(), values(samples, Sample::sysPerOp)));
      }
    });
    return results;
  }

  private static ResultUpload lower(String benchmark, String metric, String unit, List<Double> samples) {
    return new ResultUpload(benchmark, metric, unit, RunUpload.LOWER_IS_BETTER, samples);
  }

  private static List<Double> values(List<Sample> samples, ToDoubleFunction<Sample> f) {
    return samples.stream().map(s -> f.applyAsDouble(s)).collect(Collectors.toList());
  }

  /**
   * The machine as the host and the probe describe it; the host's OS, since a target's uname names the
   * layer. The probe's {@code machine.*} facts (Windows build and service pack, power plan, antivirus,
   * filter drivers, clock resolution) become machine attributes, which the regression page's
   * environment diff shows.
   */
  private static MachineInfo machine(String name, Map<String, String> env) {
    String os = System.getProperty("os.name") + " " + System.getProperty("os.version");
    Integer cores = parseInt(env.get("cores"));
    Long memoryKb = parseLong(env.get("memoryKb"));
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("arch", System.getProperty("os.arch"));
    attributes.put("java", System.getProperty("java.version"));
    env.forEach((k, v) -> {
      if (k.startsWith(MACHINE_PREFIX)) {
        attributes.put(k.substring(MACHINE_PREFIX.length()), clean(v));
      }
    });
    return new MachineInfo(name, os, env.get("cpu"),
        cores != null ? cores : Runtime.getRuntime().availableProcessors(),
        memoryKb != null ? memoryKb / 1024 : null, attributes);
  }

  /** Server limits: text of at most 1,024 characters without control characters (compilers print tabs). */
  static String clean(String text) {
    String s = text.replaceAll("\\p{Cntrl}+", " ").trim();
    return s.length() > 1000 ? s.substring(0, 999) + "…" : s;
  }

  private static Integer parseInt(String text) {
    try {
      return text == null ? null : Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Long parseLong(String text) {
    try {
      return text == null ? null : Long.valueOf(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
