package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class DetectionPropertiesTest {

  private static DetectionProperties bind(Map<String, String> properties) {
    return new Binder(new MapConfigurationPropertySource(properties))
        .bindOrCreate("perftrack.detection", DetectionProperties.class);
  }

  @Test
  void treatsContextSwitchesAndCpuTimesAsSecondaryByDefault() {
    DetectionProperties defaults = bind(Map.of());

    assertThat(defaults.secondaryMetrics()).startsWith("ctx-switches-per-op", "user-cpu-per-op", "sys-cpu-per-op");
    assertThat(defaults.isSecondary("ctx-switches-per-op")).isTrue();
    assertThat(defaults.isSecondary("time-per-op")).isFalse();
    assertThat(defaults.isSecondary("bandwidth")).isFalse();
  }

  @Test
  void letsAnOperatorNameTheSecondaryMetrics() {
    DetectionProperties custom = bind(Map.of("perftrack.detection.secondary-metrics", "page-faults-per-op"));

    assertThat(custom.isSecondary("page-faults-per-op")).isTrue();
    assertThat(custom.isSecondary("ctx-switches-per-op")).isFalse();
  }

  @Test
  void treatsTheExtrasOfOtherToolsFilesAsSecondaryByTheirNamePrefix() {
    DetectionProperties defaults = bind(Map.of());

    assertThat(defaults.isSecondary("counter:comparisons")).isTrue();
    assertThat(defaults.isSecondary("extra:bytes_allocated")).isTrue();
    assertThat(defaults.isSecondary("sample-time:p0.50")).isTrue();
    assertThat(defaults.isSecondary("user-time")).isTrue();
    assertThat(defaults.isSecondary("sample-time")).isFalse();
    assertThat(defaults.isSecondary("real-time")).isFalse();
  }
}
