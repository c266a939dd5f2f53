package org.perftrack.server.ingest;

import java.util.UUID;

/**
 * Told of every new run of the default branch, in the transaction that stores it, after its results are stored and
 * before it is judged (the annotations compare its environment with the machine's previous run). Whatever it writes
 * commits or rolls back with the run.
 */
public interface RunWatch {

  /** A new run: its id, and the ids of its product, version and machine. */
  void stored(UUID run, long productId, long versionId, long machineId);
}
