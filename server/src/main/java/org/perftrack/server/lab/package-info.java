/**
 * The lab loop: agents register, send heartbeats and pull jobs (measure these versions interleaved)
 * from a queue in PostgreSQL with leases; schedules and new versions make jobs; a regression whose
 * version range holds versions an agent can run is bisected to its first bad version; a claim the change-point
 * model is unsure of is measured again by confirm jobs ({@code Confirmer}) until it is placed; profile jobs measure
 * a regression's two versions for {@code profiles} ({@link ProfileJobs}). Owns {@code lab_agent}, {@code lab_job},
 * {@code lab_schedule}, {@code bisection}, {@code bisection_regression} and {@code confirmation}. The API for
 * agents ({@code /api/v1/lab}) and the page ({@code /lab}) live here; {@link Bisections} is what the
 * regression pages and API ask for a regression's bisection.
 */
package org.perftrack.server.lab;
