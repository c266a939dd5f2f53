/**
 * Detection: which version made which benchmark slower, on which machine, by how much, how sure. Owns
 * {@code regression}, {@code regression_event}, {@code detection_point}, {@code detection_stamp},
 * {@code judging_due} and {@code benchmark_setting}; every other package reads regressions through
 * {@link org.perftrack.server.detection.Regressions} (BoundariesTest).
 *
 * <p>The statistics are plain Java ({@link org.perftrack.server.detection.Detector},
 * {@link org.perftrack.server.detection.Reconciler}, {@link org.perftrack.server.detection.VersionComparer});
 * {@link org.perftrack.server.detection.Decisions} wires them to the database inside the ingest
 * transaction, for an upload ({@link org.perftrack.server.detection.DetectionService}) and after an import
 * ({@link org.perftrack.server.detection.ImportJudging}). In short:
 * <ul>
 *   <li>A series is judged per version on log(trimmed mean of its samples), so a step is a ratio.
 *   <li>Noise is the series' own session-to-session spread (robust spread of successive versions),
 *       shrunk towards a prior (twice the within-run standard error) while the history is short;
 *       within-run samples only set a floor. Below 5 versions the prior alone is used, and its
 *       degrees of freedom are the samples' (Σ(nᵢ − 1), capped at the 5-version model's 7).
 *   <li>Change points: binary segmentation; each candidate compares up to 12 versions before with up
 *       to 12 from it on (Hodges-Lehmann shift, Student t), never across another step.
 *   <li>A candidate the scan leaves undecided, and any step the new version's segment may hide, is judged again on
 *       all the versions on each side up to the neighbouring decided steps ({@link
 *       org.perftrack.server.detection.PooledScan}: two-sample t on the segment's own spread, pooled with the
 *       versions' within-run errors where an F test finds them consistent; the p-value of the largest t over the
 *       splits tried (Hunter-Worsley bound), p ≤ 1e-3; at least 4 versions each side; a trend test; the version
 *       must be the clear likeliest place of the change, or a run of at most 6 versions must hold 90 % of its
 *       likelihood). So a small step in large noise is found once enough versions after it
 *       show it, even when it lies before the versions the upload re-judges; its record is matched, never
 *       withdrawn from there. Not in a series measured in interleaved sessions, whose sessions' levels are not
 *       independent values to pool.
 *   <li>A step seen in the levels alone (not interleaved, not at the newest version) must be placed: its version
 *       holds 60 % of the likelihood among the splits within 3 versions of it ({@link
 *       org.perftrack.server.detection.StepLocation}, Huber loss, sides up to the decided steps around it), or
 *       a run of at most 4 versions holds 90 % of it: then it is reported at its likeliest version with that run
 *       as its suspects ({@code Step.firstSuspect}..{@code lastSuspect}). Otherwise it waits: a step reported at
 *       one version early or late would blame the wrong change.
 *   <li>A step must also be at least max(2 %, 1 × noise), persistent (not one session), not explained
 *       by a within-segment trend (drift: once the trend is removed, 3 standard errors must be left, 5
 *       where the sides show some trend, and 2 × that minimum where the trend is clear), and a level seen in one version only counts only at the
 *       ends of the series, if it moved by 50 % or more and nothing in its history strayed a third
 *       as far (so a new version is flagged on its own upload only when the change is that large;
 *       otherwise the next version confirms it). A step at the newest version is also reported at once when it
 *       is large against the spread between the builds before it (2 × the minimum effect and 50 %, no earlier
 *       version that strayed half as far, p ≤ 1e-3 with the noise of the versions before it): unconfirmed
 *       ({@code regression.confirmed}) until a later version shows the new level, or withdrawn when it does not.
 *       A smaller change for the worse at the newest version (the minimum effect and 4 × its error) is named in the
 *       upload's answer as waiting for one more build ({@link org.perftrack.server.detection.WaitingChange}).
 *   <li>The job's common shift ({@link org.perftrack.server.detection.CommonShift}): on a shared CI runner every
 *       benchmark of one job moves by the runner's factor. Where at least 5 series of a run reach the newest version
 *       and that factor explains a good part of their spread between builds, the steps near the newest version
 *       are also judged on the levels relative to it (with the same rules; the raw levels must move the same way
 *       by at least half as much).
 *   <li>A series of one value per version has no within-run spread: its noise is the spread between versions
 *       alone (±10 % before it has five versions).
 *   <li>Secondary metrics ({@code perftrack.detection.secondary-metrics}: context switches, CPU times)
 *       are not judged: they explain a step of their benchmark's primary metric, as its hints.
 *   <li>p-values are corrected for the scan over versions; across the metrics of one run,
 *       Benjamini-Hochberg (q = 1 %) with a per-series ceiling of p = 2e-4.
 *   <li>Interleaved sessions (runs with the same {@code batch}, issue 10): neighbouring versions of a
 *       session are compared round by round ({@link org.perftrack.server.stats.PairedRounds}) and the
 *       sessions spanning the same pair combined ({@link org.perftrack.server.stats.RandomEffects}), so
 *       session-to-session noise cannot hide a step that every session shows; a pair's error includes
 *       the pair-to-pair spread the series' other pairs show (a two-mode benchmark can sit in one mode
 *       for all rounds of one version); a step the levels suggest between interleaved versions whose
 *       rounds show none is vetoed. A clean step stands on its own
 *       ({@link org.perftrack.server.detection.PairedEvidence}): every sample of the slower version at
 *       least ×1.5 (and 3× the spread) beyond the fast half of the other's, since a disturbance only
 *       slows a sample down ({@link org.perftrack.server.stats.RankEvidence#fastSideSeparation}). Detection reads the upload's own
 *       session, and every interleaved run of the window once a step is seen.
 *   <li>Each upload re-judges only the versions whose windows contain the new one (reads 2 × 12
 *       versions each side); the reconciler confirms, re-attributes (backfills), withdraws or reopens
 *       the stored records, and leaves triaged ones' status alone. A record is withdrawn only when later
 *       data contradicts it, never because a noise estimate grew
 *       ({@link org.perftrack.server.detection.WithdrawalReason}): a step measured interleaved with its
 *       baseline only when the interleaved pairs (a rerun included) no longer show it; a step seen in the
 *       levels when the series or a rerun went back to the old level, a clear trend explains it, a step
 *       large next to the noise did not persist, or, judged with the noise as it was up to its version
 *       (what it was opened with), it is no longer a step. Every change of mind is written to
 *       {@code regression_event} with its reason: the record's {@code history}.
 *   <li>A record quotes its current version pair: baseline value and value are the two versions' own
 *       levels (trimmed means of all their samples), as on the compare page.
 * </ul>
 * The labeled evaluation against Perfherder and Otava lives in the test tree ({@code eval/README.md}).
 *
 * <p>The numbers 2 %, 1 ×, 12 and 1 % above are the defaults of {@code perftrack.detection.*}
 * ({@link org.perftrack.server.detection.DetectionProperties}); a product's benchmark settings override
 * the minimum change.
 *
 * <p>{@link org.perftrack.server.detection.CompareService} (two versions side by side, for the compare API
 * and page in {@code compare}) lives here, not in {@code compare}: it judges with the same kernel as the
 * detector (the series' noise window, the product's benchmark settings, the false-discovery control across
 * metrics), whose types stay package-private. Moving it would publish that kernel just to move one file;
 * {@code compare} calls the one public method and projects its {@code ComparedMetric} rows.
 */
package org.perftrack.server.detection;
