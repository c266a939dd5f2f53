package org.perftrack.formats;

/** A file that is not what its format says: the message names the file and what is wrong. */
public class FormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public FormatException(String message) {
    super(message);
  }

  public FormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
