package org.perftrack.agent.config;

/** A config file the agent cannot use; the message names the file and the field. */
public class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
