/**
 * One calibrated change-point model per series segment: the posterior of "no step", "a step at version k" and
 * "two steps" over the versions since a series' last decided step, and the claims it allows. Plain arithmetic on
 * arrays: no database, no Spring, nothing of perftrack but {@code stats} (BoundariesTest).
 *
 * <p>Entry point: {@link org.perftrack.server.changepoint.SegmentModel#judge} takes a {@link
 * org.perftrack.server.changepoint.Segment} (each version's runs, each run's samples, oldest version first) and
 * returns a {@link org.perftrack.server.changepoint.Posterior}: the claims with their probabilities, each version's
 * step mass P(step at k), P(no step), P(any step) and the probability of the best candidate claim (how unsure the
 * series is; the lab re-measures what lies between 0.01 and 0.99).
 *
 * <p>Assumptions (what the probabilities are calibrated under):
 * <ul>
 *   <li>Levels are compared on the log scale (a step is a ratio). A run's level is the mean of its samples' logs
 *       without its outlier samples (further than 6 pooled robust SDs from its median, when at most 12 % of the
 *       segment's samples are: more are two modes, not outliers), or their trimmed mean ({@code Robust.TRIM}) when
 *       the segment's samples have heavier tails than a normal (pooled standard deviation above 1.25 times the
 *       pooled MAD); its variance is the pooled within-run variance of the
 *       samples (the winsorized one for a trimmed mean) over its sample count, pooled over every run of the segment.
 *   <li>Each run adds a between-run (session) effect, normal with a standard deviation that is not known: it is
 *       integrated over a log-uniform grid from 0.01 % to 20 %, so the data's version-to-version scatter decides it.
 *       A version's level is the precision-weighted mean of its runs; version levels are independent given the
 *       step configuration.
 *   <li>At most two steps in a segment, and every level but the newest holds at least 3 versions (an excursion of
 *       one or two versions is sessions, not steps). A version beyond both the median of the 3 versions before it
 *       and of the 2-3 after it, the same way, by more than 4 rough SDs (the scatter of consecutive versions) is an
 *       outlier session: its variance widens. Then each version level with a version after it is a mixture: its
 *       normal (97 %) or an outlier session anywhere within a factor of 2 of the likeliest configuration's fitted
 *       level (3 %); its variance is divided by its chance of being normal, and the segment judged again (twice):
 *       an outlier session does not make a step.
 *   <li>With probability 0.01 a segment's levels drift: a slope per version, normal with SD 0.3 %, integrated out in
 *       every configuration (a slow drift is not a run of steps).
 *   <li>A step at each version with the product's step rate (a Beta prior over the rate: one step per 40 versions
 *       for a product with little history, {@link org.perftrack.server.changepoint.StepRate}).
 *   <li>A step's size (log ratio) is a scale mixture of normals whose scale is log-uniform from log 1.02 to log 3
 *       (2 % to 200 %); the base level has a flat prior. Both are integrated out in closed form.
 *   <li>A claim: P(a step of at least {@code minChange} in its direction inside the claim) / (that + P(no step
 *       inside)) at least {@code claimProbability}; at one version when one version holds it, else at the narrowest
 *       run around the likeliest version that holds it, of at most {@code widest} versions (4 unless said), else at
 *       the widest such run with the most such mass. Not modelled: sessions that shift every version they measure
 *       (interleaved pairs, the common shift across benchmarks: the caller's), an outlier session at the newest two
 *       versions (it reads as a step until the next versions say otherwise).
 * </ul>
 */
package org.perftrack.server.changepoint;
