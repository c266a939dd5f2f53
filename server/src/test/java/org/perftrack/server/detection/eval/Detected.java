package org.perftrack.server.detection.eval;

import org.perftrack.server.detection.Regression;

/** A method's claim: version {@code index} starts a new level, worse or better. */
record Detected(int index, Regression.Kind kind) {
}
