/**
 * {@code java -jar perftrack-server.jar backup FILE} and {@code restore FILE}
 * ({@link org.perftrack.server.backup.DatabaseCommands}): every table of the schema in one consistent snapshot, and
 * an empty database filled from it at the backup's schema version.
 */
package org.perftrack.server.backup;
