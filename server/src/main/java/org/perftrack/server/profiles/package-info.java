/**
 * Why a regression is slower: the profiles the lab measured (table {@code profile}; {@code POST /api/v1/profiles},
 * one benchmark at one version, per operation) and their difference between a regression's two versions
 * ({@code GET|POST /api/v1/regressions/{id}/profile}, the "Why" card of the regression page). The lab queues and
 * fences the profile jobs ({@code lab.ProfileJobs}); {@link ProfileDiff} is the pure comparison.
 */
package org.perftrack.server.profiles;
