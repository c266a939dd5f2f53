/**
 * Version order by meaning ({@link org.perftrack.server.versions.VersionOrder}), consistent with the database's
 * {@code sort_key}.
 */
package org.perftrack.server.versions;
