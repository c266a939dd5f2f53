package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.perftrack.server.lab.FakeAgent;

/** The lab page and a finished bisection in Chromium, laptop and phone; the "Bisect" button after signing in. */
class LabPagesInBrowserTest extends BrowserTest {


  @Test
  void labPageAndAFinishedBisectionAreShownAndTheBisectButtonWorksForASignedInUser() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    FakeAgent agent = new FakeAgent(http(), TOKEN, product, machine);
    List<String> versions = List.of("1.5.19-1", "1.5.19-2", "1.5.19-3", "1.5.19-4", "1.5.19-5", "1.5.19-6",
        "1.5.19-7", "1.5.19-8");
    agent.upload(UUID.randomUUID().toString(), "1.5.19-1", 18);
    agent.upload(UUID.randomUUID().toString(), "1.5.19-8", 48);
    long regression = jdbc.sql("""
        SELECT rg.id FROM regression rg JOIN series s ON s.id = rg.series_id JOIN machine m ON m.id = s.machine_id
        WHERE m.name = ? AND rg.status = 'open'""").param(machine).query(Long.class).single();
    agent.register(versions.toArray(String[]::new));
    agent.bisect(regression, v -> versions.indexOf(v) >= 5 ? 48.0 : 18.0);
    // a second machine whose agent offers no version in between: no button, the page says why it cannot bisect
    String other = unique("w7-lab");
    FakeAgent second = new FakeAgent(http(), TOKEN, product, other);
    second.upload(UUID.randomUUID().toString(), "1.5.19-1", 18);
    second.upload(UUID.randomUUID().toString(), "1.5.19-8", 48);
    second.register("1.5.19-1", "1.5.19-8");
    long unbisected = jdbc.sql("""
        SELECT rg.id FROM regression rg JOIN series s ON s.id = rg.series_id JOIN machine m ON m.id = s.machine_id
        WHERE m.name = ? AND rg.status = 'open'""").param(other).query(Long.class).single();

    assertThat(http().postJson("/api/v1/lab/schedules", "{\"product\": \"" + product
        + "\", \"cron\": \"0 0 2 * * *\"}", ADMIN_TOKEN).status()).isEqualTo(200);

    open("/lab");
    assertThat(browser.driver.findElement(By.id("agent-" + machine)).getText()).contains("online", "8 versions");
    assertThat(browser.driver.findElement(By.id("schedules")).getText()).contains(product + " on every machine, next 20");
    assertThat(browser.driver.findElement(By.id("bisections")).getText())
        .contains("first bad version 1.5.19-6 (last good 1.5.19-5), 3 rounds");
    List<String> names = new java.util.ArrayList<>(versions);
    names.addAll(List.of(machine, other));
    // and the dates (each agent's "seen 2026-12-02 17:02:11" at least, the schedule's next run), whichever day it is
    java.time.LocalDate today = java.time.LocalDate.now();
    names.addAll(List.of(today.minusDays(1).toString(), today.toString(), today.plusDays(1).toString()));
    assertNamesReadWholeOnAPhone(names, versions.size() + 2 + 3);
    browser.screenshot("lab-laptop", 1366);
    browser.screenshot("lab-phone", 390);

    open("/regressions/" + regression);
    assertThat(browser.driver.findElement(By.id("bisection")).getText())
        .contains("first bad version 1.5.19-6 (last good 1.5.19-5), 3 rounds");
    browser.screenshot("bisection-laptop", 1366);
    browser.screenshot("bisection-phone", 390);

    signIn();
    open("/regressions/" + unbisected);
    String cannot = "the agent of " + other + " offers no version between 1.5.19-1 and 1.5.19-8";
    assertThat(browser.driver.findElements(By.xpath("//button[text()='Bisect']"))).as("no agent could run it").isEmpty();
    assertThat(browser.driver.findElement(By.id("bisection")).getText()).contains("Cannot bisect now: " + cannot + ".");
    var asked = http().postJson("/api/v1/regressions/" + unbisected + "/bisection", "", token(
        org.perftrack.server.security.Scope.TRIAGE));
    assertThat(asked.json().get("sentence").asString()).isEqualTo("cannot bisect: " + cannot);
    assertThat(http().getWithToken("/api/v1/regressions/" + unbisected + "/bisection", TOKEN).status())
        .as("an impossible request keeps nothing").isEqualTo(404);
    open("/regressions/" + unbisected);
    assertThat(browser.driver.findElements(By.cssSelector("#bisection .badge"))).as("no permanent badge").isEmpty();
    assertThat(browser.driver.findElement(By.id("bisection")).getText().toLowerCase().split("cannot bisect", -1))
        .as("said once").hasSize(2);

    open("/lab");
    browser.driver.findElement(By.id("agent-" + other)).findElement(By.xpath(".//button[text()='Run now']")).click();
    awaitText(By.cssSelector(".note"), "queued for " + other);
    assertThat(jdbc.sql("SELECT versions FROM lab_job WHERE machine = ? AND reason = 'manual'").param(other)
        .query((rs, i) -> List.of((String[]) rs.getArray(1).getArray())).single())
        .containsExactly("1.5.19-1", "1.5.19-8");
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }
}
