/**
 * The home page {@code /} ({@code HomePages}): open regressions, products, machines, latest runs; on an empty
 * database, how to send the first results.
 */
package org.perftrack.server.home;
