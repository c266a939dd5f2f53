/**
 * Atom feeds (RFC 4287) of what perftrack found, for feed readers and chat bots that follow no webhook:
 * {@link org.perftrack.server.feeds.AtomFeed} writes one, {@code FeedPages} serves each {@code AtomFeed.Source}, a bean
 * of the package of what it lists ({@code /feeds/regressions.atom}: regressions' {@code RegressionFeed},
 * {@code /feeds/summaries.atom}: summaries' {@code SummaryFeed}); on a server
 * without public reads a feed reader passes a read token in the URL ({@code ?token=}, security's feed chain).
 */
package org.perftrack.server.feeds;
