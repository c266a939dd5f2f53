package org.perftrack.server.db;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * A PostgreSQL streaming replica that pages and read APIs read from, beside the primary of
 * {@code spring.datasource.url} that everything else uses.
 *
 * @param replicaUrl JDBC URL of the replica (a hot standby of the primary); unset: everything reads the primary
 * @param replicaUsername its user; default {@code spring.datasource.username}
 * @param replicaPassword its password; default {@code spring.datasource.password}
 * @param lagWarning pages say how far behind the replica is once it is further behind than this
 * @param maxLag a replica further behind than this (or unreachable) is not read from: reads go to the primary
 * @param lagCheck how often the replica's distance to the primary is measured
 */
@ConfigurationProperties("perftrack.datasource")
@Validated
public record ReplicaProperties(
    String replicaUrl,
    String replicaUsername,
    String replicaPassword,
    @DefaultValue("5s") @NotNull Duration lagWarning,
    @DefaultValue("5m") @NotNull Duration maxLag,
    @DefaultValue("2s") @NotNull Duration lagCheck) {}
