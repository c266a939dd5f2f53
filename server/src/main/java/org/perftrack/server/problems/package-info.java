/**
 * Domain exceptions any feature's service may throw (no HTTP in them); {@code web/ApiExceptionHandler}
 * is the one place that maps them to RFC 9457 problem+json.
 */
package org.perftrack.server.problems;
