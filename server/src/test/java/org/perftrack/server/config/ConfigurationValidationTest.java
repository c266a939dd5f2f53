package org.perftrack.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perftrack.server.alerts.AlertsProperties;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.db.EmbeddedDbProperties;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.lab.ConfirmProperties;
import org.perftrack.server.security.SecurityProperties;
import org.perftrack.server.web.LimitsProperties;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A bad setting stops the server at start-up with a message that names the property, instead of a
 * failure later (a zero batch size that never sends mail, a window of one version that never flags).
 * The application here binds exactly the server's property records, as the server does.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationValidationTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties({AlertsProperties.class, SiteProperties.class, EmbeddedDbProperties.class,
      DetectionProperties.class, SecurityProperties.class, LimitsProperties.class, ConfirmProperties.class})
  static class Properties {}

  private static ConfigurableApplicationContext start(String... args) {
    SpringApplication app = new SpringApplication(Properties.class);
    app.setWebApplicationType(WebApplicationType.NONE);
    return app.run(args);
  }

  @Test
  void theDefaultsStart() {
    try (ConfigurableApplicationContext context = start()) {
      assertThat(context.getBean(DetectionProperties.class).window()).isEqualTo(12);
      assertThat(context.getBean(DetectionProperties.class).batchSettle()).hasSeconds(10);
      assertThat(context.getBean(AlertsProperties.class).batchSize()).isEqualTo(10);
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "perftrack.detection.window           | 1     | must be greater than or equal to 2",
      "perftrack.detection.min-change       | -0.1  | must be greater than or equal to 0",
      "perftrack.detection.false-discovery-rate | 1 | must be less than 1",
      "perftrack.detection.batch-settle     | 10ms  | must be longer than or equal to",
      "perftrack.alerts.batch-size          | 0     | must be greater than or equal to 1",
      "perftrack.alerts.max-attempts        | 0     | must be greater than or equal to 1",
      "perftrack.alerts.poll-interval       | 0s    | must be longer than or equal to",
      "perftrack.alerts.from                | ' '   | must not be blank",
      "perftrack.embedded-db.port           | 70000 | must be less than or equal to 65535",
      "perftrack.embedded-db.pool-size      | 0     | must be greater than or equal to 1",
      "perftrack.lab.confirm.max-versions   | 1     | must be greater than or equal to 2",
      "perftrack.lab.confirm.high           | 1.5   | must be less than or equal to 1",
      "perftrack.lab.confirm.mail-hold      | -1s   | must be longer than or equal to"})
  void aBadValueStopsStartUpNamingTheProperty(String property, String value, String reason, CapturedOutput output) {
    assertThatThrownBy(() -> start("--" + property + "=" + value).close()).isInstanceOf(RuntimeException.class);

    assertThat(output.getAll()).contains("APPLICATION FAILED TO START").contains("Origin: \"" + property + "\"")
        .contains(reason);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "perftrack.public-url          | perf.example.org | must be an absolute http(s) URL",
      "perftrack.limits.max-body-bytes | 0B           | must be positive",
      "perftrack.lab.confirm.low     | 0.995            | low must be below high"})
  void aValueTheRecordRefusesStopsStartUpNamingTheProperty(String property, String value, String reason,
      CapturedOutput output) {
    assertThatThrownBy(() -> start("--" + property + "=" + value).close()).isInstanceOf(RuntimeException.class);

    assertThat(output.getAll()).contains("APPLICATION FAILED TO START").contains(property).contains(reason);
  }
}
