package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.IntegrationTest;

/**
 * The scope matrix of the curation endpoints: excluding and including runs needs triage; deleting, restoring and
 * reading the audit log and the deleted list need admin. Unknown ids, so a 404 means "past the scope check".
 */
class CurationScopesTest extends IntegrationTest {

  private record Call(String method, String path, String body) {}

  @Test
  void eachCurationEndpointNeedsItsScope() {
    String run = UUID.randomUUID().toString();
    Map<String, String> credentials = new LinkedHashMap<>();
    credentials.put("none", null);
    credentials.put("upload+read", TOKEN);
    credentials.put("read", token(Scope.READ));
    credentials.put("triage", token(Scope.TRIAGE));
    credentials.put("admin", ADMIN_TOKEN);
    Map<Call, List<Integer>> expected = new LinkedHashMap<>();
    //                                                                  none upload+read read triage admin
    expected.put(new Call("POST", "/api/v1/runs/" + run + ":exclude", "{\"reason\":\"test upload\"}"),
        List.of(401, 403, 403, 404, 404));
    expected.put(new Call("POST", "/api/v1/runs/" + run + ":include", ""), List.of(401, 403, 403, 404, 404));
    expected.put(new Call("DELETE", "/api/v1/runs/" + run, null), List.of(401, 403, 403, 403, 404));
    expected.put(new Call("DELETE", "/api/v1/products/no-such-product/versions/1.0", null),
        List.of(401, 403, 403, 403, 404));
    expected.put(new Call("POST", "/api/v1/deletions/999999999:restore", ""), List.of(401, 403, 403, 403, 404));
    expected.put(new Call("GET", "/api/v1/deletions", null), List.of(401, 403, 403, 403, 200));
    expected.put(new Call("DELETE", "/api/v1/products/no-such-product", null), List.of(401, 403, 403, 403, 404));
    expected.put(new Call("DELETE", "/api/v1/machines/no-such-machine", null), List.of(401, 403, 403, 403, 404));
    expected.put(new Call("POST", "/api/v1/machines/no-such-machine:rename", "{\"name\":\"x\"}"),
        List.of(401, 403, 403, 403, 404));
    expected.put(new Call("POST", "/api/v1/machines/no-such-machine:merge", "{\"into\":\"y\"}"),
        List.of(401, 403, 403, 403, 404));
    expected.put(new Call("GET", "/api/v1/audit", null), List.of(401, 403, 403, 403, 200));
    expected.put(new Call("DELETE", "/api/v1/lab/agents/999999999", null), List.of(401, 403, 403, 403, 404));

    List<String> wrong = new ArrayList<>();
    expected.forEach((call, statuses) -> {
      int i = 0;
      for (Map.Entry<String, String> c : credentials.entrySet()) {
        int status = send(call, c.getValue());
        if (status != statuses.get(i)) {
          wrong.add(call.method() + " " + call.path() + " as " + c.getKey() + ": " + status + ", not " + statuses.get(i));
        }
        i++;
      }
    });
    assertThat(wrong).isEmpty();
  }

  /** The admin pages of curation: nobody signed out reaches them, and a form post without a session is refused. */
  @Test
  void theCurationPagesAreForSignedInAdminsOnly() {
    List<String> wrong = new ArrayList<>();
    for (String page : List.of("/admin/products/p/delete", "/admin/machines/m/delete", "/admin/machines/m",
        "/admin/lab/agents/1/delete", "/admin/versions/delete?product=p&version=1", "/admin/deleted")) {
      int get = send(new Call("GET", page, null), null);
      if (get != 302 && get != 401) {
        wrong.add("GET " + page + ": " + get);
      }
    }
    for (String form : List.of("/admin/products/p/delete", "/admin/machines/m/delete", "/admin/machines/m/rename",
        "/admin/machines/m/merge", "/admin/lab/agents/1/delete")) {
      int post = send(new Call("POST", form, null), null);
      if (post != 302 && post != 401 && post != 403) {
        wrong.add("POST " + form + ": " + post);
      }
    }
    assertThat(wrong).isEmpty();
  }

  /** Without a token, no body: a refused anonymous body is not read (the connection closes). */
  private int send(Call call, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + call.path()))
        .header("Content-Type", "application/json")
        .method(call.method(), call.body() == null || token == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(call.body()));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    // a client of its own each time: a refused request may close its connection without reading the body
    try {
      return java.net.http.HttpClient.newHttpClient().send(b.build(), java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
