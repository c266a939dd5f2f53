/**
 * Atom feeds (RFC 4287) of what perftrack found, for feed readers and chat bots that follow no webhook:
 * {@link org.perftrack.server.feeds.AtomFeed} writes one. The feeds themselves are served by the package of what they
 * list ({@code /feeds/regressions.atom} by regressions, {@code /feeds/summaries.atom} by summaries); on a server
 * without public reads a feed reader passes a read token in the URL ({@code ?token=}, security's feed chain).
 */
package org.perftrack.server.feeds;
