package org.perftrack.server.detection;

/**
 * One series touched by an upload: its points (the whole series, or just the versions within
 * 2 × window of the changed one, which is all the detector reads) and the version that was added.
 */
public record SeriesUpdate(SeriesHistory series, String changedVersion, DetectionSettings settings) {
}
