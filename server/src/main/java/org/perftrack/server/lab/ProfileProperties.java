package org.perftrack.server.lab;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Profile jobs ({@code perftrack.lab.profile.*}).
 *
 * @param automatically false: profiles are measured only when asked for on the regression page or the API
 */
@ConfigurationProperties("perftrack.lab.profile")
@Validated
public record ProfileProperties(@DefaultValue("true") boolean automatically) {}
