package org.perftrack.server.db;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The embedded PostgreSQL used when no {@code spring.datasource.url} is set.
 *
 * @param dir data directory, kept across restarts
 * @param port 0 picks a free port
 * @param poolSize connection pool size
 * @param durable fsync and synchronous commit on (the default: an answered upload is on disk); off
 *     only for throw-away databases
 * @param connectionTimeout how long a request waits for a database connection before it fails
 */
@ConfigurationProperties("perftrack.embedded-db")
public record EmbeddedDbProperties(
    @DefaultValue("./perftrack-data") Path dir,
    @DefaultValue("0") int port,
    @DefaultValue("10") int poolSize,
    @DefaultValue("true") boolean durable,
    @DefaultValue("5s") java.time.Duration connectionTimeout) {}
