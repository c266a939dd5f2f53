package org.perftrack.agent;

/** A failure the user can fix, with a message that says how; the agent exits with code 1. */
public class AgentException extends Exception {
  private static final long serialVersionUID = 1L;

  public AgentException(String message) {
    super(message);
  }
}
