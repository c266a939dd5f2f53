package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Issue 27: a real step, then test versions after it that withdraw it; excluding or deleting them reopens the step
 * with its history, including or restoring them withdraws it again, and a purge leaves no row behind.
 */
class CurationTest extends IntegrationTest {

  @Autowired Purge purge;

  private final Random random = new Random(5);
  private final String product = unique("cygwin");
  private final String machine = unique("xp");

  @Test
  void excludingTheTestRunsThatWithdrewAStepReopensItAndIncludingThemWithdrawsItAgain() {
    List<String> testRuns = stepThenTestVersions();
    String triage = token(Scope.TRIAGE);

    for (String id : testRuns) {
      Http.Response excluded = post("/api/v1/runs/" + id + ":exclude", "{\"reason\":\"test upload\"}", triage);
      assertThat(excluded.status()).as(excluded.body()).isEqualTo(200);
    }

    JsonNode step = theStep();
    assertThat(step.get("status").asString()).isEqualTo("open");
    JsonNode history = step.get("history");
    assertThat(actions(history)).containsSubsequence("opened", "withdrawn", "reopened");
    assertThat(history.get(history.size() - 1).get("reason").asString())
        .startsWith("data excluded by token:test (test upload)");
    JsonNode run = http().get("/api/v1/runs/" + testRuns.get(0)).json();
    assertThat(run.get("results").size()).as("an excluded run stays stored and shown").isEqualTo(1);
    assertThat(http().get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=write-64b&metric=time-per-op").body()).doesNotContain("\"4.12\"", "\"4.13\"");

    for (String id : testRuns) {
      assertThat(post("/api/v1/runs/" + id + ":include", null, triage).status()).isEqualTo(200);
    }
    JsonNode withdrawn = theStep();
    assertThat(withdrawn.get("status").asString()).isEqualTo("withdrawn");
    String reason = withdrawn.get("withdrawnReason").asString();
    assertThat(http().get("/regressions/" + withdrawn.get("id").asLong()).body())
        .as("its page says why detection withdrew it").contains("Withdrawn by detection:", escape(reason));
    assertThat(http().get("/regressions?status=withdrawn&product=" + product).body())
        .as("the list filtered to withdrawn ones: the filter chosen, the row's reason")
        .contains("<option value=\"withdrawn\" selected=\"selected\">withdrawn (by detection)</option>",
            "withdrawn-reason", escape(reason)).doesNotContain("Nothing is open");
    assertThat(http().get("/regressions?product=" + unique("none")).body()).as("the open filter, nothing found")
        .contains("Nothing is open");
    assertThat(post("/api/v1/runs/" + testRuns.get(0) + ":include", null, triage).status())
        .as("not excluded").isEqualTo(409);
    assertThat(post("/api/v1/runs/" + testRuns.get(0) + ":exclude", "{}", triage).json().get("fields").get(0)
        .get("field").asString()).isEqualTo("reason");

    long stepId = theStep().get("id").asLong();
    assertThat(http().patchJson("/api/v1/regressions/" + stepId, "{\"note\":\"seen\"}", triage).status()).isEqualTo(200);
    JsonNode audit = http().getWithToken("/api/v1/audit?actor=token:test", ADMIN_TOKEN).json();
    List<String> touched = new ArrayList<>();
    audit.forEach(e -> touched.add(e.get("action").asString() + " " + e.get("target").asString()));
    assertThat(touched).contains("excluded " + "run " + testRuns.get(0) + " of " + product + " 4.12 on " + machine,
        "included " + "run " + testRuns.get(1) + " of " + product + " 4.13 on " + machine,
        "triaged regression " + stepId);
  }

  @Test
  void deletingTheTestVersionsReopensTheStepAndRestoringThemWithdrawsItAgain() {
    stepThenTestVersions();
    List<Long> deletions = new ArrayList<>();
    for (String v : List.of("4.12", "4.13")) {
      Http.Response deleted = send("DELETE", "/api/v1/products/" + product + "/versions/" + v, ADMIN_TOKEN);
      assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
      deletions.add(deleted.json().get("deletionId").asLong());
    }
    JsonNode step = theStep();
    assertThat(step.get("status").asString()).isEqualTo("open");
    assertThat(last(step.get("history")).get("reason").asString()).startsWith("data deleted by token:test-admin");
    assertThat(send("DELETE", "/api/v1/products/" + product + "/versions/4.12", ADMIN_TOKEN).status())
        .as("deleted already").isEqualTo(404);
    assertThat(http().getWithToken("/api/v1/deletions", ADMIN_TOKEN).body()).contains("version 4.12 of " + product);
    assertThat(http().get("/api/v1/products/" + product + "/versions?limit=100").body())
        .contains("\"4.11\"").doesNotContain("4.12", "4.13");
    assertThat(http().get("/api/v1/products/" + product + "/versions?limit=100&machine=" + machine).body())
        .doesNotContain("4.12", "4.13");
    for (String page : List.of("/products/" + product, "/compare?product=" + product, "/machines/" + machine)) {
      String html = http().get(page).body();
      assertThat(html).as(page).doesNotContain(">4.12<", ">4.13<", "\"4.12\"", "\"4.13\"");
    }
    // home lists every product (other tests' ones too, some with a version 4.13): this product's row
    String home = http().get("/").body();
    int row = home.indexOf("<a href=\"/products/" + product + "\">");
    assertThat(row).as("the product's row on home").isNotNegative();
    assertThat(home.substring(row, home.indexOf("</tr>", row))).as("the latest version on home").contains(">4.11<")
        .doesNotContain("4.12", "4.13");
    assertThat(versionsShown()).as("home, product page, discovery: the deleted versions are not counted")
        .containsExactly("11", "11 versions", 11L);

    for (Long d : deletions) {
      Http.Response restored = post("/api/v1/deletions/" + d + ":restore", null, ADMIN_TOKEN);
      assertThat(restored.status()).as(restored.body()).isEqualTo(200);
    }
    assertThat(theStep().get("status").asString()).isEqualTo("withdrawn");
    assertThat(versionsShown()).as("restored, they count again").containsExactly("13", "13 versions", 13L);
    assertThat(jdbc.sql("""
        SELECT count(*) FROM detection_point p JOIN version v ON v.id = p.version_id JOIN product pr ON pr.id = v.product_id
        WHERE pr.name = ? AND v.name IN ('4.12', '4.13')""").param(product).query(Long.class).single())
        .as("the restored versions count again").isEqualTo(2);
    assertThat(http().getWithToken("/api/v1/deletions", ADMIN_TOKEN).body()).doesNotContain("version 4.12 of " + product);
  }

  @Test
  void aPurgedVersionLeavesNoRowBehindInAnyTable() {
    for (int v = 1; v <= 10; v++) {
      upload("5." + v, 100);
    }
    String bad = upload("5.11", 300).json().get("id").asString();
    assertThat(theStepAt("5.11")).as("the test version made a step of its own").isNotNull();
    long versionId = jdbc.sql("SELECT v.id FROM version v JOIN product p ON p.id = v.product_id"
        + " WHERE p.name = ? AND v.name = '5.11'").param(product).query(Long.class).single();
    long deletion = send("DELETE", "/api/v1/products/" + product + "/versions/5.11", ADMIN_TOKEN).json()
        .get("deletionId").asLong();

    purge.purge(deletion);

    assertThat(rowsMentioning(UUID.fromString(bad), versionId, deletion)).isEmpty();
    assertThat(http().get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=write-64b&metric=time-per-op").json().get("points").size()).isEqualTo(10);
    assertThat(upload("5.11", 100).status()).as("the name can be used again").isEqualTo(201);
  }

  @Test
  void aDeletedProductIsGoneFromThePagesComesBackWhenRestoredAndLeavesNoRowWhenPurged() {
    stepThenTestVersions();
    long productId = jdbc.sql("SELECT id FROM product WHERE name = ?").param(product).query(Long.class).single();
    Http.Response deleted = send("DELETE", "/api/v1/products/" + product, ADMIN_TOKEN);
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    assertThat(http().get("/api/v1/products").body()).doesNotContain(product);
    assertThat(http().get("/products/" + product).status()).isEqualTo(404);
    assertThat(http().get("/api/v1/regressions?status=all&product=" + product).json().size()).isZero();

    long deletion = deleted.json().get("deletionId").asLong();
    assertThat(post("/api/v1/deletions/" + deletion + ":restore", null, ADMIN_TOKEN).status()).isEqualTo(200);
    assertThat(http().get("/api/v1/products").body()).contains(product);
    assertThat(theStep().get("status").asString()).isEqualTo("withdrawn");

    long again = send("DELETE", "/api/v1/products/" + product, ADMIN_TOKEN).json().get("deletionId").asLong();
    purge.purge(again);
    List<String> left = new ArrayList<>();
    for (String[] c : jdbc.sql("""
        SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name NOT LIKE 'flyway%'
          AND (column_name = 'product_id' OR (table_name = 'product' AND column_name = 'id'))""")
        .query((rs, i) -> new String[] {rs.getString(1), rs.getString(2)}).list()) {
      if (jdbc.sql("SELECT count(*) FROM " + c[0] + " WHERE " + c[1] + " = ?").param(productId).query(Long.class)
          .single() > 0) {
        left.add(c[0] + "." + c[1]);
      }
    }
    for (String[] c : jdbc.sql("""
        SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_name IN ('product', 'name') AND data_type = 'text'""")
        .query((rs, i) -> new String[] {rs.getString(1), rs.getString(2)}).list()) {
      if (jdbc.sql("SELECT count(*) FROM " + c[0] + " WHERE " + c[1] + " = ?").param(product).query(Long.class)
          .single() > 0) {
        left.add(c[0] + "." + c[1]);
      }
    }
    assertThat(left).isEmpty();
    assertThat(jdbc.sql("SELECT count(*) FROM series s JOIN machine m ON m.id = s.machine_id WHERE m.name = ?")
        .param(machine).query(Long.class).single()).isZero();
  }

  @Test
  void twoNamesOfOneBoxMergeIntoOneSeriesHistoryAndARenameKeepsIt() {
    String a = unique("box-a");
    String b = unique("box-b");
    for (int v = 1; v <= 6; v++) {
      uploadTo(a, "6." + v, 100);
    }
    for (int v = 7; v <= 12; v++) {
      uploadTo(b, "6." + v, v >= 10 ? 200 : 100);
    }
    Http.Response merged = post("/api/v1/machines/" + a + ":merge", "{\"into\":\"" + b + "\"}", ADMIN_TOKEN);
    assertThat(merged.status()).as(merged.body()).isEqualTo(200);

    assertThat(points(b)).isEqualTo(12);
    assertThat(http().get(seriesPath(a)).status()).isEqualTo(404);
    JsonNode steps = http().get("/api/v1/regressions?product=" + product + "&machine=" + b).json();
    assertThat(steps.size()).isEqualTo(1);
    assertThat(steps.get(0).get("version").asString()).isEqualTo("6.10");

    String c = unique("box-c");
    assertThat(post("/api/v1/machines/" + b + ":rename", "{\"name\":\"" + c + "\"}", ADMIN_TOKEN).status())
        .isEqualTo(200);
    assertThat(points(c)).isEqualTo(12);
    assertThat(http().get("/api/v1/regressions?product=" + product + "&machine=" + c).json().size()).isEqualTo(1);
    uploadTo(a, "6.13", 200);
    assertThat(post("/api/v1/machines/" + c + ":rename", "{\"name\":\"" + a + "\"}", ADMIN_TOKEN).status())
        .as("the name is taken again").isEqualTo(409);
    assertThat(http().getWithToken("/api/v1/audit?action=merged", ADMIN_TOKEN).body()).contains("machine " + a);
  }

  @Test
  void aDeletedMachineIsGoneFromThePagesComesBackWhenRestoredAndLeavesNoRowWhenPurged() {
    String box = unique("box");
    for (int v = 1; v <= 3; v++) {
      uploadTo(box, "7." + v, 100);
    }
    long machineId = jdbc.sql("SELECT id FROM machine WHERE name = ?").param(box).query(Long.class).single();
    Http.Response deleted = send("DELETE", "/api/v1/machines/" + box, ADMIN_TOKEN);
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    assertThat(http().get("/machines/" + box).status()).isEqualTo(404);
    assertThat(http().get(seriesPath(box)).status()).isEqualTo(404);
    long deletion = deleted.json().get("deletionId").asLong();
    assertThat(post("/api/v1/deletions/" + deletion + ":restore", null, ADMIN_TOKEN).status()).isEqualTo(200);
    assertThat(points(box)).isEqualTo(3);

    purge.purge(send("DELETE", "/api/v1/machines/" + box, ADMIN_TOKEN).json().get("deletionId").asLong());
    List<String> left = new ArrayList<>();
    for (String[] c : jdbc.sql("""
        SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'public' AND (column_name = 'machine_id' OR (table_name = 'machine' AND column_name = 'id')
          OR (column_name IN ('machine', 'name') AND data_type = 'text'))""")
        .query((rs, i) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)}).list()) {
      Object value = c[2].equals("text") ? box : machineId;
      if (jdbc.sql("SELECT count(*) FROM " + c[0] + " WHERE " + c[1] + " = ?").param(value).query(Long.class)
          .single() > 0) {
        left.add(c[0] + "." + c[1]);
      }
    }
    assertThat(left).isEmpty();
  }

  @Test
  void aDeletedBranchLeavesNoRowWhenPurgedAndMainIsUntouched() {
    for (int v = 1; v <= 4; v++) {
      upload("8." + v, 100);
    }
    Http.Response pr = http().postJson("/api/v1/runs", json(run(product, "8.4+pr", machine, new ResultUpload(
        "write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, Fixtures.sessionSamples(random, 250)))
        .onBranch("pr-7", null)), TOKEN);
    assertThat(pr.status()).as(pr.body()).isEqualTo(201);
    String series = http().get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=write-64b&metric=time-per-op").body();

    long deletion = send("DELETE", "/api/v1/branches/pr-7?product=" + product, ADMIN_TOKEN).json().get("deletionId")
        .asLong();
    purge.purge(deletion);

    assertThat(jdbc.sql("SELECT count(*) FROM branch b JOIN product p ON p.id = b.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single()).isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM branch_run WHERE id = ?::uuid").param(pr.json().get("id").asString())
        .query(Long.class).single()).isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM deletion WHERE id = ?").param(deletion).query(Long.class).single())
        .isZero();
    assertThat(http().get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=write-64b&metric=time-per-op").body()).isEqualTo(series);
    assertThat(http().getWithToken("/api/v1/audit", ADMIN_TOKEN).body())
        .contains("\"action\":\"purged\",\"target\":\"branch pr-7 of " + product + " (1 build)\"");
  }

  @Test
  void aDeletedLabAgentLeavesTheLabCanBeRestoredUnlessReplacedAndLeavesNoRowWhenPurged() {
    String box = unique("lab-box");
    String mine = token(Scope.UPLOAD);
    long agent = registerAgent(mine, box).json().get("id").asLong();
    Http.Response queued = post("/api/v1/lab/jobs", "{\"product\": \"" + product + "\", \"machine\": \"" + box
        + "\"}", ADMIN_TOKEN);
    assertThat(queued.status()).as(queued.body()).isEqualTo(200);
    long job = post("/api/v1/lab/agents/" + agent + "/claim", "{}", mine).json().get("id").asLong();

    assertThat(send("DELETE", "/api/v1/lab/agents/" + agent, mine).status()).as("upload token").isEqualTo(403);
    long agents = agentCount();
    Http.Response deleted = send("DELETE", "/api/v1/lab/agents/" + agent, ADMIN_TOKEN);
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    long deletion = deleted.json().get("deletionId").asLong();
    assertThat(agentCount()).as("the lab leaves it out").isEqualTo(agents - 1);
    assertThat(jdbc.sql("SELECT status FROM lab_job WHERE id = ?").param(job).query(String.class).single())
        .as("its job back in the queue").isEqualTo("queued");
    assertThat(post("/api/v1/lab/agents/" + agent + "/heartbeat", "{}", mine).status()).isEqualTo(404);
    assertThat(send("DELETE", "/api/v1/lab/agents/" + agent, ADMIN_TOKEN).status()).as("deleted already")
        .isEqualTo(404);
    assertThat(http().getWithToken("/api/v1/deletions", ADMIN_TOKEN).body())
        .contains("lab agent " + agent + " (" + product + " on " + box + ")");
    assertThat(http().getWithToken("/api/v1/audit?action=deleted", ADMIN_TOKEN).body())
        .contains("lab agent " + agent + " (" + product + " on " + box + ")");

    Http.Response replaced = registerAgent(token(Scope.UPLOAD), box);
    assertThat(replaced.status()).as("its place may be taken by any token").isEqualTo(200);
    long successor = replaced.json().get("id").asLong();
    assertThat(successor).isNotEqualTo(agent);
    Http.Response refused = post("/api/v1/deletions/" + deletion + ":restore", null, ADMIN_TOKEN);
    assertThat(refused.status()).as(refused.body()).isEqualTo(409);
    assertThat(refused.body()).contains("lab agent " + successor);

    assertThat(send("DELETE", "/api/v1/lab/agents/" + successor, ADMIN_TOKEN).status()).isEqualTo(200);
    assertThat(post("/api/v1/deletions/" + deletion + ":restore", null, ADMIN_TOKEN).status()).isEqualTo(200);
    assertThat(post("/api/v1/lab/agents/" + agent + "/heartbeat", "{}", mine).status()).as("back").isEqualTo(200);
    assertThat(agentCount()).isEqualTo(agents);

    purge.purge(send("DELETE", "/api/v1/lab/agents/" + agent, ADMIN_TOKEN).json().get("deletionId").asLong());
    assertThat(jdbc.sql("SELECT count(*) FROM lab_agent WHERE id = ?").param(agent).query(Long.class).single())
        .isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM deletion WHERE lab_agent_id = ? AND kind = 'lab-agent'").param(agent)
        .query(Long.class).single()).isZero();
  }

  @Test
  void anUploadOrImportToADeletedProductMachineOrVersionIsRefusedNamingItAndStoresNothing() {
    for (int v = 1; v <= 3; v++) {
      upload("9." + v, 100);
    }
    assertThat(send("DELETE", "/api/v1/products/" + product + "/versions/9.3", ADMIN_TOKEN).status()).isEqualTo(200);
    Http.Response toVersion = sendRun("9.3", machine);
    assertThat(toVersion.status()).as(toVersion.body()).isEqualTo(409);
    assertThat(toVersion.contentType()).contains("application/problem+json");
    JsonNode field = toVersion.json().get("fields").get(0);
    assertThat(field.get("field").asString()).isEqualTo("version");
    assertThat(field.get("message").asString()).startsWith("version 9.3 of " + product
        + " was deleted by token:test-admin at ").endsWith("; an admin can restore it under Recently deleted"
        + " (/admin/deleted)");

    String box = unique("gone-box");
    uploadTo(box, "9.1", 100);
    assertThat(send("DELETE", "/api/v1/machines/" + box, ADMIN_TOKEN).status()).isEqualTo(200);
    Http.Response toMachine = sendRun("9.4", box);
    assertThat(toMachine.status()).isEqualTo(409);
    assertThat(toMachine.json().get("fields").get(0).get("field").asString()).isEqualTo("machine.name");

    long runsBefore = runsOfProduct();
    String lines = String.join("\n", json(run(product, "9.3", machine, result(100))),
        json(run(product, "9.4", machine, result(100))), json(run(product, "9.5", box, result(100)))) + "\n";
    Http.Response imported = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
        + "/api/v1/runs:import")).header("Content-Type", "application/x-ndjson")
        .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString(lines)));
    assertThat(imported.status()).as(imported.body()).isEqualTo(200);
    JsonNode report = imported.json();
    assertThat(report.get("created").asInt()).as(imported.body()).isEqualTo(1);
    assertThat(report.get("failed").asInt()).isEqualTo(2);
    assertThat(report.get("errors").get(0).get("line").asLong()).isEqualTo(1);
    assertThat(report.get("errors").get(0).get("problems").get(0).get("message").asString())
        .contains("version 9.3 of " + product + " was deleted by token:test-admin");
    assertThat(report.get("errors").get(1).get("problems").get(0).get("field").asString()).isEqualTo("machine.name");
    assertThat(runsOfProduct()).as("only the line to live names").isEqualTo(runsBefore + 1);

    assertThat(send("DELETE", "/api/v1/products/" + product, ADMIN_TOKEN).status()).isEqualTo(200);
    Http.Response toProduct = sendRun("9.6", machine);
    assertThat(toProduct.status()).isEqualTo(409);
    assertThat(toProduct.json().get("fields").get(0).get("field").asString()).isEqualTo("product");
    assertThat(toProduct.json().get("detail").asString()).startsWith("product " + product + " was deleted by");
    assertThat(runsOfProduct()).as("nothing stored").isEqualTo(runsBefore + 1);
  }

  private static ResultUpload result(double level) {
    return new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER,
        Fixtures.sessionSamples(new Random(3), level));
  }

  private Http.Response sendRun(String version, String box) {
    return http().postJson("/api/v1/runs", json(run(product, version, box, result(100))), TOKEN);
  }

  private long runsOfProduct() {
    return jdbc.sql("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single();
  }

  private long agentCount() {
    return http().getWithToken("/api/v1/lab", ADMIN_TOKEN).json().get("agentCount").asLong();
  }

  private Http.Response registerAgent(String token, String box) {
    return post("/api/v1/lab/agents", "{\"product\": \"" + product + "\", \"machine\": \"" + box
        + "\", \"targets\": [\"1.0\"]}", token);
  }

  private String seriesPath(String machine) {
    return "/api/v1/series?product=" + product + "&machine=" + machine + "&benchmark=write-64b&metric=time-per-op";
  }

  private int points(String machine) {
    return http().get(seriesPath(machine)).json().get("points").size();
  }

  private Http.Response uploadTo(String machineName, String version, double level) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machineName, new ResultUpload(
        "write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, Fixtures.sessionSamples(random, level)))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r;
  }

  /** Every column of every table that holds a run id (any uuid column) or a version or deletion id. */
  private List<String> rowsMentioning(UUID run, long version, long deletion) {
    List<String> found = new ArrayList<>();
    List<String[]> columns = jdbc.sql("""
        SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name NOT LIKE 'flyway%'
          AND (data_type = 'uuid' OR column_name LIKE '%version_id' OR (table_name = 'version' AND column_name = 'id')
               OR column_name = 'deletion_id' OR (table_name = 'deletion' AND column_name = 'id'))""")
        .query((rs, i) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)}).list();
    assertThat(columns).hasSizeGreaterThan(10);
    for (String[] c : columns) {
      Object value = c[2].equals("uuid") ? run
          : c[1].equals("deletion_id") || c[0].equals("deletion") ? deletion : version;
      long n = jdbc.sql("SELECT count(*) FROM " + c[0] + " WHERE " + c[1] + " = ?").param(value)
          .query(Long.class).single();
      if (n > 0) {
        found.add(c[0] + "." + c[1] + ": " + n);
      }
    }
    return found;
  }

  /** 4.1 … 4.10 at 100 µs, a real step to 160 µs at 4.11, then two test versions back at 100 that withdraw it. */
  private List<String> stepThenTestVersions() {
    for (int v = 1; v <= 10; v++) {
      upload("4." + v, 100);
    }
    assertThat(upload("4.11", 160).json().get("regressions").size()).isEqualTo(1);
    List<String> testRuns = List.of(upload("4.12", 100).json().get("id").asString(),
        upload("4.13", 100).json().get("id").asString());
    assertThat(theStep().get("status").asString()).as("the test versions withdrew it").isEqualTo("withdrawn");
    return testRuns;
  }

  /** The product's count of versions on home (its row's cell), its own page and in the discovery API. */
  private List<Object> versionsShown() {
    String home = http().get("/").body();
    int row = home.indexOf("<a href=\"/products/" + product + "\">");
    assertThat(row).as("the product's row on home").isNotNegative();
    java.util.regex.Matcher cell = java.util.regex.Pattern.compile("<td class=\"num[^\"]*\">(\\d+)</td>")
        .matcher(home.substring(row, home.indexOf("</tr>", row)));
    assertThat(cell.find()).as("the versions cell of the product's row").isTrue();
    java.util.regex.Matcher header = java.util.regex.Pattern.compile("(\\d+ versions?),")
        .matcher(http().get("/products/" + product).body());
    assertThat(header.find()).as("the product page's count").isTrue();
    JsonNode discovered = null;
    for (JsonNode p : http().getWithToken("/api/v1/products?limit=5&after=" + product.substring(0,
        product.length() - 1), TOKEN).json().get("items")) {
      if (p.get("name").asString().equals(product)) {
        discovered = p;
      }
    }
    assertThat(discovered).as("the product in the discovery API").isNotNull();
    return List.of(cell.group(1), header.group(1), discovered.get("versions").asLong());
  }

  private JsonNode theStep() {
    JsonNode step = theStepAt("4.11");
    assertThat(step).isNotNull();
    return http().get("/api/v1/regressions/" + step.get("id").asLong()).json();
  }

  private JsonNode theStepAt(String version) {
    for (JsonNode r : http().get("/api/v1/regressions?status=all&product=" + product + "&machine=" + machine).json()) {
      if (r.get("version").asString().equals(version)) {
        return r;
      }
    }
    return null;
  }

  private static List<String> actions(JsonNode history) {
    List<String> out = new ArrayList<>();
    history.forEach(e -> out.add(e.get("action").asString()));
    return out;
  }

  private static JsonNode last(JsonNode array) {
    return array.get(array.size() - 1);
  }

  private Http.Response upload(String version, double level) {
    return uploadTo(machine, version, level);
  }

  private Http.Response post(String path, String body, String token) {
    return http().postJson(path, body == null ? "" : body, token);
  }

  private Http.Response send(String method, String path, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .method(method, HttpRequest.BodyPublishers.noBody()).header("Authorization", "Bearer " + token);
    return http().send(b);
  }

  @Test
  void aProductsDeleteConfirmationCountsItsBranchesAndTheirBuilds(@Autowired CurationStore store) {
    for (int v = 1; v <= 3; v++) {
      upload("9." + v, 100);
    }
    assertThat(store.productBranches(product)).isEqualTo(new CurationStore.BranchToll(0, 0));
    for (String build : List.of("9.3+a", "9.3+b")) {
      Http.Response pr = http().postJson("/api/v1/runs", json(run(product, build, machine, new ResultUpload(
          "write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, Fixtures.sessionSamples(random, 100)))
          .onBranch("pr-9", null)), TOKEN);
      assertThat(pr.status()).as(pr.body()).isEqualTo(201);
    }

    assertThat(store.productBranches(product)).isEqualTo(new CurationStore.BranchToll(1, 2));
  }

  @Test
  void anUnknownStatusInTheRegressionListIsA400SayingWhatIsAllowedOnce() {
    Http.Response r = http().get("/api/v1/regressions?status=open,bogus");

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).contains("\"detail\":\"status: must be one of open, ", "withdrawn (comma-separated) or all,"
        + " got: bogus\"").doesNotContain("status: status");
  }

  /** As a page writes text (Thymeleaf escapes quotes and ampersands). */
  private static String escape(String text) {
    return org.springframework.web.util.HtmlUtils.htmlEscape(text);
  }
}
