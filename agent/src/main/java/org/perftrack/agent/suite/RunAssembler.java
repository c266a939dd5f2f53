package org.perftrack.agent.suite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.ToDoubleFunction;
import org.perftrack.formats.RunUpload;
import org.perftrack.formats.RunUpload.BenchmarkFailure;
import org.perftrack.formats.RunUpload.MachineInfo;
import org.perftrack.formats.RunUpload.ResultUpload;

/** Turns one target's measurements into the run the server takes (one run = one version on one machine). */
public final class RunAssembler {

  /** @param attributes session-wide run attributes (scale, repetitions, agent version) */
  public record Session(String product, String machine, String batch, Map<String, String> attributes) {}

  private RunAssembler() {}

  public static RunUpload assemble(Measurements m, Session session) {
    PreparedTarget t = m.target();
    Map<String, String> attributes = new LinkedHashMap<>(session.attributes());
    attributes.putAll(t.environment());
    attributes.put("target", t.target().name());
    attributes.put("shell", String.join(" ", t.target().shell().prefix()));
    t.target().shell().env().forEach((k, v) -> attributes.put("env." + k, v));
    if (m.interrupted()) {
      attributes.put("interrupted", "true");
    }
    List<BenchmarkFailure> failures = new ArrayList<>();
    m.failures().forEach((name, message) -> failures.add(new BenchmarkFailure(name, clean(message))));
    attributes.replaceAll((k, v) -> clean(v));
    attributes.values().removeIf(String::isBlank);
    return new RunUpload(UUID.randomUUID().toString(), session.product(), t.target().version(),
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
    return samples.stream().map(s -> f.applyAsDouble(s)).toList();
  }

  /** The machine as the host and the probe describe it; the host's OS, since a target's uname names the layer. */
  private static MachineInfo machine(String name, Map<String, String> env) {
    String os = System.getProperty("os.name") + " " + System.getProperty("os.version");
    Integer cores = parseInt(env.get("cores"));
    Long memoryKb = parseLong(env.get("memoryKb"));
    return new MachineInfo(name, os, env.get("cpu"),
        cores != null ? cores : Runtime.getRuntime().availableProcessors(),
        memoryKb != null ? memoryKb / 1024 : null,
        Map.of("arch", System.getProperty("os.arch")));
  }

  /** Server limits: text of at most 1,024 characters without control characters (compilers print tabs). */
  static String clean(String text) {
    String s = text.replaceAll("\\p{Cntrl}+", " ").strip();
    return s.length() > 1000 ? s.substring(0, 999) + "…" : s;
  }

  private static Integer parseInt(String text) {
    try {
      return text == null ? null : Integer.valueOf(text.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Long parseLong(String text) {
    try {
      return text == null ? null : Long.valueOf(text.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
