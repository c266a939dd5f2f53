package org.perftrack.server.web;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/** Size limits on input. @param maxBodyBytes the largest API request body accepted */
@ConfigurationProperties("perftrack.limits")
@Validated
public record LimitsProperties(@DefaultValue("16MB") @NotNull DataSize maxBodyBytes) {

  public LimitsProperties {
    if (maxBodyBytes != null && maxBodyBytes.toBytes() <= 0) {
      throw new IllegalArgumentException("perftrack.limits.max-body-bytes must be positive, got " + maxBodyBytes);
    }
  }
}
