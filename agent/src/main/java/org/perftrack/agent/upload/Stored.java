package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * 200/201: the server has the run; {@code regressions} are those it flagged (a step at the newest version
 * unconfirmed), {@code confirmed} those flagged unconfirmed before that this run confirmed, {@code summaries} the
 * summaries it opened or grew, each as "opened http://server/summaries/7"; {@code waiting} the changes at the
 * run's version that wait for one more build before the server reports them. An unreadable answer only costs
 * these lists: the run is stored.
 */
public final class Stored implements Outcome {

  /** The mark of a branch run's inconclusive change among the waiting ones. */
  public static final String INCONCLUSIVE = "inconclusive";

  private final int status;
  private final JsonNode answer;
  private final String base;

  private Stored(int status, JsonNode answer, String base) {
    this.status = status;
    this.answer = answer;
    this.base = base;
  }

  /** The answer {@code body} of {@code server} (its address, whose pages the summaries' links are on). */
  static Stored of(int status, String body, String server) {
    JsonNode answer;
    try {
      answer = WireJson.MAPPER.readTree(body);
    } catch (IOException e) {
      answer = null;
    }
    return new Stored(status, answer == null || !answer.isObject() ? WireJson.MAPPER.createObjectNode() : answer,
        server);
  }

  public int status() {
    return status;
  }

  public List<JsonNode> regressions() {
    return withProfiles(list("regressions"));
  }

  public List<JsonNode> confirmed() {
    return withProfiles(list("confirmed"));
  }

  /** The field a listed regression gets when the answer names its profile: the address of its "Why" card. */
  public static final String PROFILE_URL = "profileUrl";

  /** Each regression whose profile the answer names (done, queued or running) gets {@link #PROFILE_URL}. */
  private List<JsonNode> withProfiles(List<JsonNode> regressions) {
    for (JsonNode p : list("profiles")) {
      for (JsonNode r : regressions) {
        if (r instanceof ObjectNode && r.path("id").asLong(-1) == p.path("regression").asLong(-2)
            && p.hasNonNull("path")) {
          ((ObjectNode) r).put(PROFILE_URL, base + p.get("path").asText());
        }
      }
    }
    return regressions;
  }

  /**
   * The answer's {@code waiting} changes, then a branch run's {@code inconclusive} ones, each of these marked
   * {@code "inconclusive": true}: neither is a regression, neither fails the build.
   */
  public List<JsonNode> waiting() {
    List<JsonNode> list = list("waiting");
    for (JsonNode c : list("inconclusive")) {
      if (c instanceof ObjectNode) {
        ((ObjectNode) c).put(INCONCLUSIVE, true);
        list.add(c);
      }
    }
    return list;
  }

  /** The run's page on this server ("http://server/runs/<id>"), or null when the answer names no id. */
  public String runUrl() {
    String id = answer.path("id").asText("");
    return id.isEmpty() ? null : base + "/runs/" + id;
  }

  /** The summaries named in the answer, with their page's address on this server. */
  public List<String> summaries() {
    List<String> list = new ArrayList<>();
    for (JsonNode s : list("summaries")) {
      list.add(s.path("change").asText("changed") + " " + base + s.path("url").asText(""));
    }
    return list;
  }

  /** The version of the {@code i}th of {@link #summaries} (a session's answer names other runs' versions); null if unsaid. */
  public String summaryVersion(int i) {
    List<JsonNode> summaries = list("summaries");
    return i < summaries.size() && summaries.get(i).hasNonNull("version") ? summaries.get(i).get("version").asText()
        : null;
  }

  /** The batch of the run's session, when the run waits for the session's other runs; null otherwise. */
  public String waitsForSession() {
    JsonNode session = session();
    return session != null && !session.path("judged").asBoolean(true) ? session.path("batch").asText("") : null;
  }

  /** The batch of the run's session, when this upload judged the session; null otherwise. */
  public String judgedSession() {
    JsonNode session = session();
    return session != null && session.path("judged").asBoolean(false) ? session.path("batch").asText("") : null;
  }

  /** The answer's {@code session} (null: the run is not one of a session that gave batchSize). */
  private JsonNode session() {
    JsonNode node = answer.get("session");
    return node != null && node.isObject() ? node : null;
  }

  private List<JsonNode> list(String field) {
    JsonNode node = answer.get(field);
    if (node == null || !node.isArray()) {
      return new ArrayList<>();
    }
    List<JsonNode> list = new ArrayList<>();
    node.forEach(list::add);
    return list;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Stored)) {
      return false;
    }
    Stored o = (Stored) other;
    return status == o.status && Objects.equals(regressions(), o.regressions());
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, regressions());
  }

  @Override
  public String toString() {
    return "Stored[status=" + status + ", regressions=" + regressions() + "]";
  }
}
