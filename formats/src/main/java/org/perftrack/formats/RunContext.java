package org.perftrack.formats;

/**
 * What a converted file does not say itself: which product, version and machine it measured.
 * Fields may be null for the {@code perftrack} format, whose files carry them; when set they override.
 * {@code runId} is the run id to use (a fresh UUID when null; CI re-sends should pass a stable one).
 */
public final class RunContext {
  private final String product;
  private final String version;
  private final String machine;
  private final String runId;

  public RunContext(String product, String version, String machine, String runId) {
    this.product = product;
    this.version = version;
    this.machine = machine;
    this.runId = runId;
  }

  public String product() {
    return product;
  }

  public String version() {
    return version;
  }

  public String machine() {
    return machine;
  }

  public String runId() {
    return runId;
  }
}
