/**
 * Two versions side by side: {@code /compare} ({@code ComparePages}, also as CSV), {@code GET /api/v1/compare}
 * ({@code CompareApi}), and a layer's overhead against another product ({@code OverheadApi},
 * {@link org.perftrack.server.compare.Overhead}). The verdicts come from detection's {@code CompareService}, so compare
 * and the regressions never disagree.
 */
package org.perftrack.server.compare;
