/**
 * The database: the embedded PostgreSQL perftrack starts when no {@code spring.datasource.url} is set
 * ({@link org.perftrack.server.db.EmbeddedDatabaseConfiguration}), a read replica for pages and read APIs
 * ({@link org.perftrack.server.db.ReplicaConfiguration}), and shared SQL helpers (binary COPY, arrays, row mappers).
 */
package org.perftrack.server.db;
