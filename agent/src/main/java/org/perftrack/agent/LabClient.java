package org.perftrack.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.perftrack.agent.upload.WireJson;

/**
 * The agent's side of the lab API ({@code /api/v1/lab}), over plain {@link HttpURLConnection} so that it
 * runs on Java 8. Every call either answers or throws {@link IOException} (server away: try later) or
 * {@link Refused} (the server said no: a 4xx with its problem text).
 */
final class LabClient {

  /** A 4xx: the server understood and said no (409: the job's lease is gone; 401: the token). */
  static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;
    final int status;

    Refused(int status, String problem) {
      super("HTTP " + status + ": " + problem);
      this.status = status;
    }
  }

  /** The kinds of job this agent takes, named when it registers. */
  static final List<String> KINDS = Collections.unmodifiableList(Arrays.asList("timing", "confirm", "profile"));

  /** One entry of a job's plan: measure {@code benchmark} at these versions only. */
  static final class PlanEntry {
    final String benchmark;
    final String metric;
    final List<String> versions;

    PlanEntry(String benchmark, String metric, List<String> versions) {
      this.benchmark = benchmark;
      this.metric = metric;
      this.versions = versions;
    }
  }

  /** A job the server handed out; {@code plan} null for the kinds without one (every benchmark at every version). */
  static final class Job {
    final long id;
    final String lease;
    final List<String> versions;
    final List<String> benchmarks;
    final String reason;
    final List<PlanEntry> plan;

    Job(long id, String lease, List<String> versions, List<String> benchmarks, String reason, List<PlanEntry> plan) {
      this.id = id;
      this.lease = lease;
      this.versions = versions;
      this.benchmarks = benchmarks;
      this.reason = reason;
      this.plan = plan;
    }

    /** Benchmark → the versions the plan measures it at; null when the job has no plan. */
    Map<String, Set<String>> versionsByBenchmark() {
      if (plan == null) {
        return null;
      }
      Map<String, Set<String>> by = new LinkedHashMap<String, Set<String>>();
      for (PlanEntry e : plan) {
        if (!by.containsKey(e.benchmark)) {
          by.put(e.benchmark, new LinkedHashSet<String>());
        }
        by.get(e.benchmark).addAll(e.versions);
      }
      return by;
    }
  }

  private final String root;
  private final String base;
  private final String token;

  LabClient(String server, String token) {
    this.root = server.replaceAll("/+$", "") + "/api/v1";
    this.base = root + "/lab";
    this.token = token;
  }

  /** Registers (or re-registers) the agent; returns its id. */
  long register(String product, String machine, String agentVersion, int heartbeatSeconds, List<String> targets)
      throws IOException {
    Map<String, Object> body = new LinkedHashMap<String, Object>();
    body.put("product", product);
    body.put("machine", machine);
    body.put("agentVersion", agentVersion);
    body.put("heartbeatSeconds", heartbeatSeconds);
    body.put("targets", targets);
    body.put("kinds", KINDS);
    return post("/agents", body).get("id").asLong();
  }

  void heartbeat(long agentId, String progress, List<String> targets) throws IOException {
    Map<String, Object> body = new LinkedHashMap<String, Object>();
    body.put("progress", progress);
    body.put("targets", targets);
    post("/agents/" + agentId + "/heartbeat", body);
  }

  /** The next job for this agent, or null when there is none. */
  Job claim(long agentId) throws IOException {
    JsonNode j = post("/agents/" + agentId + "/claim", new LinkedHashMap<String, Object>());
    if (j == null) {
      return null;
    }
    return new Job(j.get("id").asLong(), j.get("lease").asText(), strings(j.get("versions")),
        j.hasNonNull("benchmarks") ? strings(j.get("benchmarks")) : null, j.get("reason").asText(),
        plan(j.get("plan")));
  }

  private static List<PlanEntry> plan(JsonNode plan) {
    if (plan == null || !plan.isArray()) {
      return null;
    }
    List<PlanEntry> entries = new ArrayList<PlanEntry>();
    for (JsonNode e : plan) {
      entries.add(new PlanEntry(e.path("benchmark").asText(), e.path("metric").asText(null), strings(e.get("versions"))));
    }
    return entries;
  }

  /**
   * What the server made of a confirm job's round, one line per series ("write-64b time-per-op: placed at 1.5.21-1
   * after 1 re-run of 1.5.20-1..1.5.22-1"); null while some series is not judged yet.
   */
  List<String> outcomes(Job job) throws IOException {
    JsonNode answer = request("GET", "/jobs/" + job.id, null);
    List<String> lines = new ArrayList<String>();
    for (JsonNode o : answer.path("outcomes")) {
      if (!o.hasNonNull("outcome")) {
        return null;
      }
      lines.add(o.path("benchmark").asText() + " " + o.path("metric").asText() + ": " + o.get("outcome").asText());
    }
    return lines;
  }

  void finish(Job job, List<String> runIds) throws IOException {
    Map<String, Object> body = new LinkedHashMap<String, Object>();
    body.put("lease", job.lease);
    body.put("runIds", runIds);
    post("/jobs/" + job.id + "/finish", body);
  }

  /** A profile job ends with the ids of the profiles it sent. */
  void finishProfiles(Job job, List<Long> profileIds) throws IOException {
    Map<String, Object> body = new LinkedHashMap<String, Object>();
    body.put("lease", job.lease);
    body.put("profileIds", profileIds);
    post("/jobs/" + job.id + "/finish", body);
  }

  /** Sends one profile of a profile job ({@code POST /api/v1/profiles}); returns its id. */
  long sendProfile(Map<String, Object> profile) throws IOException {
    return request("POST", root + "/profiles", profile).get("id").asLong();
  }

  void fail(Job job, String error) throws IOException {
    Map<String, Object> body = new LinkedHashMap<String, Object>();
    body.put("lease", job.lease);
    body.put("error", error);
    post("/jobs/" + job.id + "/fail", body);
  }

  void release(Job job) throws IOException {
    Map<String, Object> body = new LinkedHashMap<String, Object>();
    body.put("lease", job.lease);
    post("/jobs/" + job.id + "/release", body);
  }

  private JsonNode post(String path, Map<String, Object> body) throws IOException {
    return request("POST", path, body);
  }

  /** A GET ({@code body} null) or a POST of JSON; the answer's JSON, or null for 204. */
  private JsonNode request(String method, String path, Map<String, Object> body) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(path.startsWith("http") ? path : base + path).openConnection();
    try {
      c.setConnectTimeout(10_000);
      c.setReadTimeout(60_000);
      c.setRequestMethod(method);
      c.setRequestProperty("Accept", "application/json, application/problem+json");
      c.setRequestProperty("Authorization", "Bearer " + token);
      if (body != null) {
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", "application/json");
        OutputStream out = c.getOutputStream();
        try {
          out.write(WireJson.MAPPER.writeValueAsBytes(body));
        } finally {
          out.close();
        }
      }
      int status = c.getResponseCode();
      if (status == 204) {
        return null;
      }
      if (status >= 200 && status < 300) {
        return WireJson.MAPPER.readTree(read(c.getInputStream()));
      }
      String problem = read(c.getErrorStream());
      if (status >= 400 && status < 500 && status != 408 && status != 429) {
        throw new Refused(status, problem);
      }
      throw new IOException("HTTP " + status + " from " + path);
    } finally {
      c.disconnect();
    }
  }

  private static String read(InputStream in) throws IOException {
    if (in == null) {
      return "";
    }
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) > 0) {
        bytes.write(buffer, 0, n);
      }
      return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    } finally {
      in.close();
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> list = new ArrayList<String>();
    for (JsonNode n : array) {
      list.add(n.asText());
    }
    return list;
  }
}
