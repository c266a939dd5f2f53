package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/** A run triage excluded reads "excluded" in home's latest runs, and the series page names the version it leaves out. */
class ExcludedRunPagesTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("xp");

  @Test
  void anExcludedRunReadsExcludedOnHomeAndTheSeriesPageNamesItsVersion() {
    upload("1.0", 18.0);
    String excluded = upload("1.1", 30.0);
    upload("1.2", 18.1);
    Http.Response r = http().postJson("/api/v1/runs/" + excluded + ":exclude", "{\"reason\":\"antivirus scan\"}",
        token(Scope.TRIAGE));
    assertThat(r.status()).as(r.body()).isEqualTo(200);

    Matcher row = Pattern.compile("(?s)<tr>(?:(?!</tr>).)*/runs/" + excluded + "\"(?:(?!</tr>).)*</tr>")
        .matcher(http().page("/").body());
    assertThat(row.find()).as("the run among home's latest").isTrue();
    assertThat(new Http.Response(200, "text/html", row.group()).text().trim()).as("its row as read")
        .endsWith(product + " 1.1 excluded on " + machine + " " + machine + " 1 0");

    assertThat(http().page("/products/" + product + "/series?benchmark=write-64b&metric=time-per-op").text()
        .replace(" .", ".")).contains("Left out, their runs excluded by triage: 1.1 on " + machine + ".");
  }

  private String upload(String version, double level) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine,
        result("write-64b", level, level * 1.01, level * 0.99, level, level * 1.005))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asString();
  }
}
