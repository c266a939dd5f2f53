/**
 * Taking runs in: {@code POST /api/v1/runs} ({@code RunUploadApi}), another tool's file
 * ({@code ForeignRunsApi}, read by the {@code formats} module) and a bulk history ({@code ImportApi}).
 * {@link org.perftrack.server.ingest.IngestService} validates, stores the run (tables {@code run}, {@code result},
 * {@code product}, {@code version}, {@code machine}, {@code series}) and judges it in one transaction; sessions of
 * several runs wait in {@code session_pending}, bound to their first token and size in {@code run_session}
 * ({@link org.perftrack.server.ingest.Sessions}).
 */
package org.perftrack.server.ingest;
