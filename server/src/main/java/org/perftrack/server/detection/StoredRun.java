package org.perftrack.server.detection;

import java.util.List;
import java.util.UUID;

/** A run that the ingest transaction has just stored: what detection needs to find the series it touched. */
public record StoredRun(UUID runId, long productId, long versionId, long machineId, UUID batch, List<Long> seriesIds) {}
