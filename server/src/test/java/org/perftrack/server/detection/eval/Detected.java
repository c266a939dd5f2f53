package org.perftrack.server.detection.eval;

import org.perftrack.server.detection.Regression;

/**
 * A method's claim: version {@code index} starts a new level, worse or better; {@code first..last} the versions it
 * may start at (only {@code index} when the method names one version).
 */
record Detected(int index, Regression.Kind kind, int first, int last) {

  Detected(int index, Regression.Kind kind) {
    this(index, kind, index, index);
  }

  int width() {
    return last - first + 1;
  }
}
