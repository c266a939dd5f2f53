package org.perftrack.server.db;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

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
@Validated
public record EmbeddedDbProperties(
    @DefaultValue("./perftrack-data") @NotNull Path dir,
    @DefaultValue("0") @Min(0) @Max(65535) int port,
    @DefaultValue("10") @Min(1) @Max(1000) int poolSize,
    @DefaultValue("true") boolean durable,
    @DefaultValue("5s") @NotNull java.time.Duration connectionTimeout) {}
