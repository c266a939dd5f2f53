package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.perftrack.server.security.Scope;
import tools.jackson.databind.JsonNode;

/**
 * The "Why" card as a person reads it, on a laptop and a phone: the sentence first, then the calls that changed,
 * the counters, the function that grew, the raw output to download.
 */
class ProfileCardInBrowserTest extends BrowserTest {

  private final String product = unique("cygwin");
  private final String machine = unique("xp-lab-01");

  private Map<String, Object> profile(long job, String version, double writes, double reads, double switches,
      double burn) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("job", job);
    p.put("product", product);
    p.put("machine", machine);
    p.put("version", version);
    p.put("benchmark", "write-64b");
    p.put("operations", 20_000);
    p.put("syscalls", List.of(Map.of("name", "write", "callsPerOp", writes, "errorsPerOp", 0.0, "timeShare", 0.6),
        Map.of("name", "read", "callsPerOp", reads, "errorsPerOp", 0.0, "timeShare", 0.4),
        Map.of("name", "lseek", "callsPerOp", 0.00006, "errorsPerOp", 0.0, "timeShare", 0.0)));
    p.put("counters", List.of(Map.of("name", "voluntary-context-switches", "perOp", switches),
        Map.of("name", "involuntary-context-switches", "perOp", 0.01),
        Map.of("name", "user-cpu-us", "perOp", 0.2 + burn), Map.of("name", "system-cpu-us", "perOp", 1.1)));
    p.put("functions", List.of(Map.of("name", "sig_dispatch_pending", "module", "cygwin1.dll", "selfShare",
        burn > 0 ? 0.6 : 0.01), Map.of("name", "write", "module", "cygwin1.dll", "selfShare", burn > 0 ? 0.3 : 0.8)));
    p.put("missing", List.of());
    p.put("rawSyscalls", "% time     seconds  usecs/call     calls    errors syscall\n");
    p.put("rawFunctions", "# Overhead  Samples  Shared Object  Symbol\n");
    return p;
  }

  /** A regression of write-64b from 1.5.19-4 to 1.5.24-2 whose profile is done; its id. */
  private long profiledRegression() {
    upload(run(product, "1.5.19-4", machine, result("write-64b", 17.9, 18.1, 18.0, 18.05, 17.95)));
    JsonNode created = upload(run(product, "1.5.24-2", machine, result("write-64b", 47.9, 48.1, 48.0, 48.05, 47.95)));
    long regression = created.get("regressions").get(0).get("id").asLong();
    Map<String, Object> agent = new LinkedHashMap<>();
    agent.put("product", product);
    agent.put("machine", machine);
    agent.put("targets", List.of("1.5.19-4", "1.5.24-2"));
    agent.put("kinds", List.of("timing", "profile"));
    long agentId = http().postJson("/api/v1/lab/agents", json(agent), TOKEN).json().get("id").asLong();
    assertThat(http().postJson("/api/v1/regressions/" + regression + "/profile", "", token(Scope.TRIAGE)).status())
        .isEqualTo(202);
    JsonNode job = http().postJson("/api/v1/lab/agents/" + agentId + "/claim", "{}", TOKEN).json();
    long id = job.get("id").asLong();
    long a = http().postJson("/api/v1/profiles", json(profile(id, "1.5.19-4", 1, 0, 0, 0)), TOKEN).json().get("id")
        .asLong();
    long b = http().postJson("/api/v1/profiles", json(profile(id, "1.5.24-2", 3, 2, 2, 20)), TOKEN).json().get("id")
        .asLong();
    assertThat(http().postJson("/api/v1/lab/jobs/" + id + "/finish", "{\"lease\": \"" + job.get("lease").asString()
        + "\", \"profileIds\": [" + a + ", " + b + "]}", TOKEN).status()).isEqualTo(200);

    return regression;
  }

  @Test
  void theWhyCardReadsItsSentenceFirstOnALaptopAndAPhone() {
    long regression = profiledRegression();
    open("/regressions/" + regression);
    browser.screenshot("regression-why-laptop", 1366);
    browser.screenshot("regression-why-phone", 390);
    String card = browser.driver.findElement(By.id("profile")).getText();
    assertThat(card).startsWith("Why\neach write() in 1.5.24-2 makes 2 more write() and 2 more read() calls and 2 more"
        + " context switches, and uses 20 µs more user CPU, 64% of it in sig_dispatch_pending (cygwin1.dll) — a round"
        + " trip to another thread");
    assertThat(browser.driver.findElements(By.cssSelector("#profile .profile-syscalls tbody tr")))
        .extracting(e -> e.getText().replaceAll("\\s+", " "))
        .containsExactly("write() 1 3 changed", "read() 0 2 appeared");
    assertThat(browser.driver.findElements(By.cssSelector("#profile .profile-raw a"))).extracting(e -> e.getText())
        .containsExactly("system calls of 1.5.19-4", "CPU profile of 1.5.19-4", "system calls of 1.5.24-2",
            "CPU profile of 1.5.24-2");

    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertThat(browser.shownOnPhoneScreen("#profile .profile-syscalls tbody tr")).as("each changed call whole")
          .anySatisfy(row -> assertThat(row.replaceAll("[\\s\\u00a0]+", " "))
              .isEqualTo("write() 1.5.19-4: 1 1.5.24-2: 3 changed"));
      assertThat(browser.overflowAtPhoneSize()).isEmpty();
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
  }

  /** The summary says what its profiled members share, compare shows the profile: read as a person sees them. */
  @Test
  void theSummaryAndCompareShowTheProfileOnALaptopAndAPhone() {
    long regression = profiledRegression();
    long summary = http().get("/api/v1/regressions/" + regression).json().get("summaryId").asLong();

    open("/summaries/" + summary);
    browser.screenshot("summary-profiles-laptop", 1366);
    browser.screenshot("summary-profiles-phone", 390);
    assertThat(browser.driver.findElement(By.id("profiles")).getText()).isEqualTo("""
        Why (profiles)
        1 of 1 slower benchmark gained 2 context switches per operation
        1 of 1 slower benchmark makes 2 more write() calls per operation
        1 of 1 slower benchmark makes 2 more read() calls per operation
        1 of 1 profiled by the lab; each member's page says why in its “Why” card.""");

    open("/compare?product=" + product + "&machine=" + machine + "&base=1.5.19-4&head=1.5.24-2");
    browser.screenshot("compare-profiles-laptop", 1366);
    browser.screenshot("compare-profiles-phone", 390);
    assertThat(browser.driver.findElement(By.id("profiles")).getText()).startsWith("Profiles of both versions\n"
        + "write-64b on " + machine + ": each write() in 1.5.24-2 makes 2 more write() and 2 more read() calls")
        .contains("Raw tracer output: system calls of 1.5.19-4 · CPU profile of 1.5.19-4");

    browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      assertThat(browser.overflowAtPhoneSize()).isEmpty();
      open("/summaries/" + summary);
      assertThat(browser.shownOnPhoneScreen("#shared-profiles li")).as("each shared change whole on a phone")
          .contains("1 of 1 slower benchmark gained 2 context switches per operation");
      assertThat(browser.overflowAtPhoneSize()).isEmpty();
    } finally {
      browser.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1366, 900));
    }
  }
}
