/**
 * What every page shares (no page of its own): number formatting ({@link org.perftrack.server.pages.Fmt}, {@code @fmt} in
 * templates), fragments rendered once ({@link org.perftrack.server.pages.Fragments}), the cache of costly
 * views ({@link org.perftrack.server.pages.DataCache}), the pickers' names
 * ({@link org.perftrack.server.pages.Catalog}), the error pages (404 of a deleted thing, 400 naming the field) and
 * the {@code Server-Timing} filter.
 */
package org.perftrack.server.pages;
