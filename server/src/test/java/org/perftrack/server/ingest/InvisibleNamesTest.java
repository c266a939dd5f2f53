package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/**
 * Issue 12 item 14 (the rest): names that are not text (a lone surrogate) or that display otherwise than
 * they are stored (zero-width, bidirectional controls) are a 400 naming the field and the character.
 */
class InvisibleNamesTest extends IntegrationTest {

  private static final String MARK = "MARKMARK";

  /** A run whose {@code field} holds {@code escape} (a JSON escape, sent as it is) in the middle of its name. */
  private Http.Response upload(String field, String escape, String machine) {
    String product = unique("p");
    String benchmark = "write-64b";
    switch (field) {
      case "product" -> product = product + MARK;
      case "machine.name" -> machine = machine + MARK;
      case "results[0].benchmark" -> benchmark = benchmark + MARK;
      default -> throw new IllegalArgumentException(field);
    }
    String body = json(run(product, "1.0", machine, result(benchmark, 48.2, 47.9, 48.4)));
    assertThat(body).contains(MARK);
    return http().postJson("/api/v1/runs", body.replace(MARK, escape + "x"), TOKEN);
  }

  @ParameterizedTest(name = "{0} with {1}")
  @CsvSource({
      "results[0].benchmark, \\ud800, lone surrogate U+D800",
      "results[0].benchmark, \\udc01, lone surrogate U+DC01",
      "machine.name, \\ud83d, lone surrogate U+D83D",
      "product, \\udfff, lone surrogate U+DFFF",
      "results[0].benchmark, \\u202e, U+202E RIGHT-TO-LEFT OVERRIDE",
      "machine.name, \\u200b, U+200B ZERO WIDTH SPACE",
      "product, \\u2067, U+2067 RIGHT-TO-LEFT ISOLATE",
      "results[0].benchmark, \\u200f, U+200F RIGHT-TO-LEFT MARK",
      "machine.name, \\ufeff, U+FEFF ZERO WIDTH NO-BREAK SPACE",
      "results[0].benchmark, \\u200d, U+200D ZERO WIDTH JOINER"})
  void aNameThatIsNotPlainVisibleTextIsA400NamingTheFieldAndTheCharacter(String field, String escape, String said) {
    String machine = unique("m");

    Http.Response r = upload(field, escape, machine);

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo(field);
    assertThat(r.json().get("fields").get(0).get("message").asString()).contains(said);
    assertThat(jdbc.sql("SELECT count(*) FROM machine WHERE name LIKE ?").param(machine + "%").query(Long.class).single())
        .as("nothing stored").isZero();
  }

  /** Issue 26 item 12: {@code "  1.5.25-1"} would be a look-alike second version of {@code "1.5.25-1"}. */
  @ParameterizedTest(name = "{0} = [{1}]")
  @CsvSource(delimiter = '|', value = {
      "version | '  1.5.25-1' | U+0020 SPACE at 0",
      "version | '1.5.25-1 ' | U+0020 SPACE at 8",
      "machine.name | 'lab\u00a0' | U+00A0 NO-BREAK SPACE at ",
      "results[0].benchmark | '\twrite' | U+0009"})
  void aNameWithASpaceAtEitherEndIsA400(String field, String value, String said) {
    String product = unique("p");
    String machine = unique("m");
    String version = "1.5.25-1";
    String benchmark = "write-64b";
    String name = value;
    switch (field) {
      case "version" -> version = name;
      case "machine.name" -> machine = machine + name;
      case "results[0].benchmark" -> benchmark = name;
      default -> throw new IllegalArgumentException(field);
    }

    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine, result(benchmark, 48.2, 47.9))),
        TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo(field);
    assertThat(r.json().get("fields").get(0).get("message").asString()).contains(said);
    assertThat(jdbc.sql("SELECT count(*) FROM product WHERE name = ?").param(product).query(Long.class).single())
        .as("nothing stored").isZero();
  }

  @Test
  void rightToLeftLettersAndPairedSurrogatesAreNames() {
    String machine = unique("m") + "-\u05de\u05db\u05d5\u05e0\u05d4-\ud83d\ude80";
    String benchmark = "\u05db\u05ea\u05d9\u05d1\u05d4-64b \ud835\udc65";

    Http.Response r = http().postJson("/api/v1/runs",
        json(run(unique("p"), "1.0", machine, result(benchmark, 48.2, 47.9, 48.4))), TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(jdbc.sql("SELECT name FROM machine WHERE name = ?").param(machine).query(String.class).single())
        .isEqualTo(machine);
    assertThat(jdbc.sql("SELECT count(*) FROM series WHERE benchmark = ?").param(benchmark).query(Long.class).single())
        .isOne();
  }
}
