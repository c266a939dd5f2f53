package org.perftrack.server.detection.eval;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.perftrack.server.db.Json;
import org.perftrack.server.PerftrackApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * CI as a noisy shared runner sees it: each build runs a Google Benchmark program of {@value #BENCHMARKS} benchmarks
 * with {@value #REPETITIONS} repetitions ({@code --benchmark_format=json}) and sends the file to a real server as
 * CI does ({@code POST /api/v1/runs?format=gbench&product=…&version=…&machine=…}: the formats module's converter, then
 * the upload path every run takes); the 201's answer fails the build ({@code --fail-on-regression}: any regression
 * the upload created, confirmed or not) or not. Noise: 10 % per sample, one runner factor per job (CV 8 %, all
 * benchmarks of the build), 3 % per benchmark and build, 5 % of samples ×1.5; cpu_time follows real_time within 1 %.
 * A stepping product of ten builds gets ×2.0 and ×2.5 on two benchmarks at build 8; an A/A product of fifteen
 * builds changes nothing. Each seed has its own two products on one server and database.
 * Run: {@code bench/run-main.sh org.perftrack.server.detection.eval.CiSimulation [seeds]} (default 40 seeds).
 */
public final class CiSimulation {
  static final int BENCHMARKS = 8;
  static final int REPETITIONS = 10;
  static final int STEP_BUILDS = 10;
  static final int CULPRIT = 7;
  static final int AA_BUILDS = 15;
  private static final double[] STEPS = {2.0, 2.5};
  private static final String TOKEN = "ci-simulation-token-0123456789";
  private static final boolean DIAG = System.getProperty("diag") != null;

  public static void main(String[] args) throws Exception {
    int seeds = args.length == 0 ? 40 : Integer.parseInt(args[0]);
    Path dir = Files.createTempDirectory("perftrack-ci-simulation");
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--server.port=0", "--perftrack.embedded-db.dir=" + dir.resolve("db"), "--perftrack.alerts.enabled=false",
            "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=ci-simulation",
            "--logging.level.root=WARN")) {
      String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort();
      Server server = new Server(HttpClient.newHttpClient(), base);
      run(server, seeds);
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir);
    }
  }

  private static void run(Server server, int seeds) throws Exception {
    int culpritFails = 0;
    int culpritNamesBoth = 0;
    int earlyFails = 0;
    int confirmedAtNext = 0;
    int withdrawn = 0;
    int waitingBefore = 0;
    int aaFails = 0;
    int aaFailedBuilds = 0;
    int aaWaiting = 0;
    for (int seed = 1; seed <= seeds; seed++) {
      Random random = new Random(seed);
      Outcome step = replay(server, "ci-step-" + seed, random, STEP_BUILDS, true);
      culpritFails += step.failed[CULPRIT].isEmpty() ? 0 : 1;
      culpritNamesBoth += step.failed[CULPRIT].equals(Set.of("BM_Stepped/0", "BM_Stepped/1")) ? 1 : 0;
      boolean early = false;
      for (int b = 0; b < CULPRIT; b++) {
        early |= !step.failed[b].isEmpty();
        waitingBefore += step.waiting[b] > 0 ? 1 : 0;
      }
      earlyFails += early ? 1 : 0;
      confirmedAtNext += step.confirmed[CULPRIT + 1].equals(Set.of("BM_Stepped/0", "BM_Stepped/1")) ? 1 : 0;
      withdrawn += server.withdrawnAt("ci-step-" + seed, "1.0." + CULPRIT);
      if (DIAG && !step.failed[CULPRIT].equals(Set.of("BM_Stepped/0", "BM_Stepped/1"))) {
        System.out.printf(Locale.ROOT, "  seed %d: the culprit build named %s%n", seed, step.failed[CULPRIT]);
      }
      Outcome aa = replay(server, "ci-aa-" + seed, random, AA_BUILDS, false);
      int failedBuilds = 0;
      for (Set<String> f : aa.failed) {
        failedBuilds += f.isEmpty() ? 0 : 1;
      }
      if (DIAG && failedBuilds > 0) {
        System.out.printf(Locale.ROOT, "  seed %d: A/A failed %d builds%n", seed, failedBuilds);
      }
      aaFails += failedBuilds > 0 ? 1 : 0;
      for (int w : aa.waiting) {
        aaWaiting += w > 0 ? 1 : 0;
      }
      aaFailedBuilds += failedBuilds;
    }
    System.out.printf(Locale.ROOT, "%d seeds; Google Benchmark files of %d benchmarks x %d repetitions through"
        + " POST /api/v1/runs?format=gbench; steps x2.0 and x2.5 at build %d of %d; A/A %d builds%n", seeds,
        BENCHMARKS, REPETITIONS, CULPRIT + 1, STEP_BUILDS, AA_BUILDS);
    System.out.printf(Locale.ROOT, "culprit build fails: %.1f %% of seeds; names both benchmarks (and nothing else):"
        + " %.1f %% (target >= 95)%n", 100.0 * culpritFails / seeds, 100.0 * culpritNamesBoth / seeds);
    System.out.printf(Locale.ROOT, "confirmed by the next build: %.1f %%; true steps withdrawn: %d;"
        + " a build before the culprit fails: %.1f %% of seeds%n", 100.0 * confirmedAtNext / seeds, withdrawn,
        100.0 * earlyFails / seeds);
    System.out.printf(Locale.ROOT, "A/A products with no failed build: %.1f %% of seeds (target >= 95); failed builds:"
        + " %d of %d%n", 100.0 - 100.0 * aaFails / seeds, aaFailedBuilds, seeds * AA_BUILDS);
    System.out.printf(Locale.ROOT, "answers saying \"%s\": %d of %d builds before the culprit, %d of %d A/A"
        + " builds%n", "waiting for one more build", waitingBefore, seeds * CULPRIT, aaWaiting, seeds * AA_BUILDS);
  }

  /**
   * Per build: the benchmarks whose regressions the upload created ({@code failed}), those it confirmed, and how
   * many steps its answer said were waiting for one more build.
   */
  private record Outcome(Set<String>[] failed, Set<String>[] confirmed, int[] waiting) {
  }

  @SuppressWarnings("unchecked")
  private static Outcome replay(Server server, String product, Random random, int builds, boolean stepped)
      throws Exception {
    double[] base = new double[BENCHMARKS];
    for (int m = 0; m < BENCHMARKS; m++) {
      base[m] = Math.exp(Math.log(10_000) * random.nextDouble());
    }
    Set<String>[] failed = new Set[builds];
    Set<String>[] confirmed = new Set[builds];
    int[] waiting = new int[builds];
    for (int b = 0; b < builds; b++) {
      double runner = Math.exp(0.08 * random.nextGaussian());
      double[][] samples = new double[BENCHMARKS][REPETITIONS];
      for (int m = 0; m < BENCHMARKS; m++) {
        double level = base[m] * runner * Math.exp(0.03 * random.nextGaussian());
        if (stepped && m < STEPS.length && b >= CULPRIT) {
          level *= STEPS[m];
        }
        for (int r = 0; r < REPETITIONS; r++) {
          samples[m][r] = level * Math.max(0.05, 1 + 0.1 * random.nextGaussian())
              * (random.nextDouble() < 0.05 ? 1.5 : 1);
        }
      }
      JsonNode answer = server.upload(product, "1.0." + b, gbenchFile(samples, stepped, random));
      if (DIAG && !stepped && !answer.path("regressions").isEmpty()) {
        int build = b;
        answer.path("regressions").forEach(r -> System.out.printf(Locale.ROOT, "  A/A %s build %d: %s x%.3f p %.2g"
            + " %s%n", product, build, r.path("benchmark").asString(), r.path("ratio").asDouble(),
            r.path("pValue").asDouble(), r.path("history").path(0).path("reason").asString()));
      }
      failed[b] = benchmarks(answer.path("regressions"));
      confirmed[b] = benchmarks(answer.path("confirmed"));
      waiting[b] = answer.path("waiting").size();
    }
    return new Outcome(failed, confirmed, waiting);
  }

  private static Set<String> benchmarks(JsonNode regressions) {
    Set<String> names = new TreeSet<>();
    regressions.forEach(r -> names.add(r.path("benchmark").asString()));
    return names;
  }

  /** The file {@code ./bench --benchmark_repetitions=10 --benchmark_format=json} writes (repetitions only). */
  static String gbenchFile(double[][] samples, boolean stepped, Random random) {
    StringBuilder json = new StringBuilder(8192);
    json.append("{\n  \"context\": {\"date\": \"2026-12-02T10:00:00+00:00\", \"host_name\": \"ci-runner\",")
        .append(" \"executable\": \"./bench\", \"num_cpus\": 2, \"mhz_per_cpu\": 2600, \"cpu_scaling_enabled\": false,")
        .append(" \"library_build_type\": \"release\"},\n  \"benchmarks\": [");
    for (int m = 0; m < samples.length; m++) {
      String name = (stepped && m < STEPS.length ? "BM_Stepped/" : "BM_Steady/") + m;
      for (int r = 0; r < samples[m].length; r++) {
        double real = samples[m][r];
        double cpu = real * (0.98 + 0.01 * random.nextGaussian());
        json.append(m == 0 && r == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT, "    {\"name\": \"%s\","
            + " \"family_index\": %d, \"per_family_instance_index\": 0, \"run_name\": \"%s\", \"run_type\":"
            + " \"iteration\", \"repetitions\": %d, \"repetition_index\": %d, \"threads\": 1, \"iterations\": 1000,"
            + " \"real_time\": %.6e, \"cpu_time\": %.6e, \"time_unit\": \"ns\"}", name, m, name, samples[m].length, r,
            real, cpu));
      }
    }
    return json.append("\n  ]\n}\n").toString();
  }

  private record Server(HttpClient http, String base) {
    JsonNode upload(String product, String version, String file) throws Exception {
      String query = "format=gbench&product=" + enc(product) + "&version=" + enc(version) + "&machine=ci-runner";
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/runs?" + query))
          .header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN)
          .POST(HttpRequest.BodyPublishers.ofString(file)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 201) {
        throw new IllegalStateException("upload of " + product + " " + version + " answered " + r.statusCode()
            + ": " + r.body());
      }
      return Json.MAPPER.readTree(r.body());
    }

    /** Regressions of the product at {@code version} that were withdrawn (true steps, in a stepping product). */
    int withdrawnAt(String product, String version) throws Exception {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/regressions?product="
          + enc(product) + "&status=withdrawn")).header("Authorization", "Bearer " + TOKEN).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      JsonNode list = Json.MAPPER.readTree(r.body());
      JsonNode items = list.isArray() ? list : list.path("items");
      int n = 0;
      for (JsonNode item : items) {
        n += item.path("version").asString().equals(version) ? 1 : 0;
      }
      return n;
    }

    private static String enc(String s) {
      return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
  }
}
