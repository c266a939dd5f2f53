package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/**
 * Issue 12 item 8 (the rest): error details speak the caller's terms (no Java or Jackson type names),
 * and a body of the wrong content type is answered 415 with a problem detail.
 */
class ApiErrorDetailsTest extends IntegrationTest {

  /** A qualified Java name (java.lang.Double, org.perftrack…, tools.jackson…), a nested class, an exception. */
  private static final Pattern INTERNAL = Pattern.compile(
      "\\b(java|javax|jakarta|tools|com|org)\\.[a-z]\\w*\\.|\\w\\$\\w|[A-Z]\\w*(Exception|Error)\\b|`");

  private static final String RUN_START = "{\"id\": \"3f1c2a9e-0b7d-4c1e-9a55-2f7f1e0c9d41\", \"product\": \"p\","
      + " \"version\": \"1\", \"machine\": {\"name\": \"m\"}, ";

  @ParameterizedTest
  @ValueSource(strings = {
      "[1, 2]",
      "\"a run\"",
      "42",
      "{\"product\": {\"name\": \"p\"}}",
      "{\"machine\": [\"m\"]}",
      "{\"machine\": {\"name\": \"m\", \"cores\": \"many\"}}",
      "{\"machine\": {\"name\": \"m\", \"memoryMb\": 1e400}}",
      "{\"results\": \"fast\"}",
      "{\"results\": [{\"benchmark\": \"b\", \"samples\": \"1,2\"}]}",
      "{\"results\": [{\"benchmark\": \"b\", \"samples\": [1, {\"x\": 2}]}]}",
      "{\"results\": [{\"benchmark\": \"b\", \"n\": 2.5, \"mean\": 1}]}",
      "{\"startedAt\": \"yesterday\"}",
      "{\"startedAt\": [2007, 3, 7]}",
      "{\"attributes\": [\"a\"]}",
      "{\"attributes\": {\"a\": {\"b\": 1}}}",
      "{\"product\": \"p\",}",
      "{\"product\": 'p'}",
      "{\"product\" \"p\"}",
      "{",
      "\u0000"})
  void aMalformedRunNamesNoInternalType(String body) {
    Http.Response r = http().postJson("/api/v1/runs", body, TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("detail").asString()).isNotBlank();
    assertThat(INTERNAL.matcher(r.body()).find()).as(r.body()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"status\": 5}", "{\"status\": [\"invalid\"]}", "{\"note\": {\"a\": 1}}", "[]", "{"})
  void aMalformedTriageNamesNoInternalType(String body) {
    Http.Response r = http().patchJson("/api/v1/regressions/1", body, ADMIN_TOKEN);

    assertThat(r.status()).as(r.body()).isBetween(400, 499);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(INTERNAL.matcher(r.body()).find()).as(r.body()).isFalse();
  }

  @ParameterizedTest(name = "{0} {1} as {2}")
  @CsvSource({
      "POST, /api/v1/runs, text/plain",
      "POST, /api/v1/runs, application/xml",
      "POST, /api/v1/runs, text/html",
      "POST, /api/v1/runs, multipart/form-data; boundary=x",
      "PATCH, /api/v1/regressions/1, text/plain",
      "PUT, /api/v1/benchmark-settings/p/b, text/plain",
      "POST, /api/v1/subscriptions, application/xml"})
  void aBodyOfTheWrongContentTypeIs415WithAProblemDetail(String method, String path, String contentType) {
    Http.Response r = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Content-Type", contentType).header("Authorization", "Bearer " + ADMIN_TOKEN)
        .method(method, HttpRequest.BodyPublishers.ofString(RUN_START + "\"results\": []}", StandardCharsets.UTF_8)));

    assertThat(r.status()).as(r.body()).isEqualTo(415);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("status").asInt()).isEqualTo(415);
    assertThat(r.json().get("detail").asString()).contains("content type", "not accepted", "application/json");
    assertThat(INTERNAL.matcher(r.body()).find()).as(r.body()).isFalse();
  }

  /** A query parameter left out, or not of its type: named as every other bad field is, in the caller's terms. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "/api/v1/series?machine=m&benchmark=b&metric=t | product | product: is required",
      "/api/v1/branches | product | product: is required",
      "/api/v1/compare?product=p&base=1.0&machine=m | head | head: is required",
      "/api/v1/regressions?limit=abc | limit | limit: must be a whole number, got: abc",
      "/api/v1/series?product=p&machine=m&benchmark=b&metric=t&last=x | last | last: must be a whole number, got: x",
      "/api/v1/summaries/abc | id | id: must be a whole number, got: abc"})
  void aQueryParameterMissingOrOfTheWrongTypeIsNamed(String path, String field, String detail) {
    Http.Response r = http().get(path);

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("detail").asString()).isEqualTo(detail);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo(field);
    assertThat(INTERNAL.matcher(r.body()).find()).as(r.body()).isFalse();
  }

  /** The same on a page's address: the 400 page says which parameter and what it must be. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "/summaries/abc | id: must be a whole number, got: abc",
      "/regressions/12x | id: must be a whole number, got: 12x",
      "/regressions?before=abc | before: must be the id of a regression, got: abc"})
  void aPageAddressWithAParameterOfTheWrongTypeSaysWhich(String path, String says) {
    Http.Response r = http().page(path);

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.text()).contains("That did not work", says.replaceFirst(": ", " : "));
    assertThat(INTERNAL.matcher(r.text()).find()).as(r.text()).isFalse();
  }
}
