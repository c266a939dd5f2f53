package org.perftrack.server.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/** Size limits on input. @param maxBodyBytes the largest API request body accepted */
@ConfigurationProperties("perftrack.limits")
public record LimitsProperties(@DefaultValue("16MB") DataSize maxBodyBytes) {}
