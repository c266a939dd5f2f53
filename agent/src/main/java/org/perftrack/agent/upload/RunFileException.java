package org.perftrack.agent.upload;

/** A result file that is not a run the agent can send, with a message that names the file and what is wrong. */
public final class RunFileException extends Exception {
  private static final long serialVersionUID = 1L;

  public RunFileException(String message) {
    super(message);
  }
}
