package org.perftrack.formats;

/**
 * What a converted file does not say itself: which product, version and machine it measured.
 * Fields may be null for the {@code perftrack} format, whose files carry them; when set they override.
 *
 * @param runId the run id to use (a fresh UUID when null; CI re-sends should pass a stable one)
 */
public record RunContext(String product, String version, String machine, String runId) {}
