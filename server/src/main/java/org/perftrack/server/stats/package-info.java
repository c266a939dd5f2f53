/**
 * The statistics kernel: small named estimators and tests on plain arrays, shared by detection and
 * the compare page so that a median, a trimmed mean or a rank test exists once. No Spring, no state, and
 * nothing else of perftrack (BoundariesTest).
 * <ul>
 *   <li>{@link org.perftrack.server.stats.Robust}: median, MAD, trimmed mean (its {@code TRIM}), Hodges-Lehmann shift.
 *   <li>{@link org.perftrack.server.stats.StudentT}: the two-sided p-value of a t statistic.
 *   <li>{@link org.perftrack.server.stats.MeanSplit}: a series split into two means, their shift and its pooled t.
 *   <li>{@link org.perftrack.server.stats.MultipleTesting}: Benjamini-Hochberg over many hypotheses.
 *   <li>{@link org.perftrack.server.stats.PairedRounds}: the log ratio of two versions measured
 *       interleaved (round by round), with a winsorized standard error.
 *   <li>{@link org.perftrack.server.stats.RandomEffects}: combines per-batch estimates (fixed effect,
 *       DerSimonian-Laird between-batch variance when there are several).
 *   <li>{@link org.perftrack.server.stats.RankEvidence}: Mann-Whitney on raw samples and the "clean
 *       separation" rule on the fast side of the samples (disturbances only slow a sample down).
 * </ul>
 */
package org.perftrack.server.stats;
