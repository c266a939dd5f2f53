package org.perftrack.server.alerts;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Webhooks ({@code perftrack.webhooks.*}); their retries follow {@code perftrack.alerts.*} (backoff, max attempts).
 *
 * @param allowedNetworks CIDRs (e.g. {@code 10.1.2.0/24}, {@code 127.0.0.1/32}) in loopback, link-local or private
 *     ranges that webhooks may reach anyway; empty by default, so a webhook cannot reach the server's own network
 * @param connectTimeout how long a connection to a receiver may take
 * @param timeout how long a whole call may take once connected (sending the body, reading the answer)
 * @param maxBodyBytes the largest body sent: a summary with more members than fit is cut ("and 42 more")
 */
@ConfigurationProperties("perftrack.webhooks")
@Validated
public record WebhooksProperties(
    @DefaultValue List<String> allowedNetworks,
    @DefaultValue("5s") @NotNull @DurationMin(millis = 10) Duration connectTimeout,
    @DefaultValue("10s") @NotNull @DurationMin(millis = 10) Duration timeout,
    @DefaultValue("262144") @Min(4096) @Max(4_194_304) int maxBodyBytes) {

  public WebhooksProperties {
    allowedNetworks = allowedNetworks == null ? List.of()
        : allowedNetworks.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
    for (String cidr : allowedNetworks) {
      NetworkGuard.Cidr.parse(cidr); // a bad one stops start-up naming the property
    }
  }

  List<NetworkGuard.Cidr> networks() {
    return allowedNetworks.stream().map(NetworkGuard.Cidr::parse).toList();
  }
}
