package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a pass over the spool achieved: runs stored and rejected, {@code left} runs still waiting, whether the server
 * refused the token or is no perftrack server, and what the stored runs' answers reported.
 */
public final class Pass {
  private int stored;
  private int rejected;
  private int left;
  private boolean refused;
  private int reattributions;
  private int taken;
  private final List<JsonNode> regressions = new ArrayList<>();
  private final List<JsonNode> confirmed = new ArrayList<>();
  private final List<JsonNode> waiting = new ArrayList<>();

  Pass() {}

  /** A stored run; {@code moved}: it opened no regression but moved known ones to its version. */
  void stored(Stored s, boolean moved) {
    stored++;
    regressions.addAll(s.regressions());
    confirmed.addAll(s.confirmed());
    waiting.addAll(s.waiting());
    reattributions += moved ? 1 : 0;
  }

  void addRejected() {
    rejected++;
  }

  /** An entry another agent process was sending: neither stored by this pass nor left waiting. */
  void addTaken() {
    taken++;
  }

  /** The pass stopped with {@code left} runs still waiting; {@code refused}: the server will not take them. */
  Pass stopped(int left, boolean refused) {
    this.left = left;
    this.refused = refused;
    return this;
  }

  public int stored() {
    return stored;
  }

  public int rejected() {
    return rejected;
  }

  public int left() {
    return left;
  }

  /** Entries of other commands that another agent process was sending at the same time. */
  public int taken() {
    return taken;
  }

  public boolean refused() {
    return refused;
  }

  /** Stored runs that opened no regression but moved known ones to their version. */
  public int reattributions() {
    return reattributions;
  }

  public List<JsonNode> regressions() {
    return Collections.unmodifiableList(regressions);
  }

  /** Regressions reported unconfirmed by an earlier upload that these uploads confirmed. */
  public List<JsonNode> confirmed() {
    return Collections.unmodifiableList(confirmed);
  }

  /** Changes at the uploaded versions that wait for one more build before they are reported. */
  public List<JsonNode> waiting() {
    return Collections.unmodifiableList(waiting);
  }

  @Override
  public String toString() {
    return "Pass[stored=" + stored + ", rejected=" + rejected + ", left=" + left + ", refused=" + refused
        + ", regressions=" + regressions + ", reattributions=" + reattributions + "]";
  }
}
