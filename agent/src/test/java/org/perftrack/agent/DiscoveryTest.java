package org.perftrack.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.ConfigException;
import org.perftrack.agent.config.ConfigLoader;
import org.perftrack.agent.config.TargetConfig;

class DiscoveryTest {

  @TempDir
  Path home;

  private final ConfigLoader loader = new ConfigLoader(name -> null);

  @Test
  void everyMatchingFolderIsATargetWithPathAndNameFilledIn() throws Exception {
    Path layers = Files.createDirectories(home.resolve("layers"));
    Files.createDirectories(layers.resolve("1.5.19-2"));
    Files.createDirectories(layers.resolve("1.5.19-1"));
    Files.createDirectories(layers.resolve("notes"));
    Files.write(layers.resolve("1.5.19-3"), Collections.singletonList("a file, not an installation"));
    AgentConfig config = loader.parse("product: cygwin\n"
        + "discover:\n"
        + "  - glob: " + layers + "/1.5.*\n"
        + "    version: \"{name}\"\n"
        + "    shell: [\"{path}/bin/bash\", \"-c\"]\n"
        + "    env: {LD_PRELOAD: \"{path}/liblayer.so\"}\n", "agent.yml");

    List<TargetConfig> targets = Discovery.targets(config.discover());

    assertThat(targets).extracting(TargetConfig::version).containsExactly("1.5.19-1", "1.5.19-2");
    Path first = layers.resolve("1.5.19-1").toAbsolutePath();
    assertThat(targets.get(0).shell()).containsExactly(first + "/bin/bash", "-c");
    assertThat(targets.get(0).env()).containsEntry("LD_PRELOAD", first + "/liblayer.so");
  }

  @Test
  void aFolderThatAppearsLaterIsANewTarget() throws Exception {
    Path layers = Files.createDirectories(home.resolve("snapshots"));
    Files.createDirectories(layers.resolve("20070307"));
    String yaml = "product: cygwin\ndiscover:\n  - {glob: " + layers + "/*, version: \"{name}\", shell: [bash, -c]}\n";
    AgentConfig config = loader.parse(yaml, "agent.yml");
    assertThat(Discovery.targets(config.discover())).hasSize(1);

    Files.createDirectories(layers.resolve("20070314"));

    assertThat(Discovery.targets(config.discover())).extracting(TargetConfig::version)
        .containsExactly("20070307", "20070314");
  }

  @Test
  void discoverWithoutShellOrVersionIsAnErrorNamingTheField() {
    assertThatThrownBy(() -> loader.parse("product: p\ndiscover:\n  - {glob: /opt/*, version: \"{name}\"}\n", "lab.yml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("discover[0].shell");
    assertThatThrownBy(() -> loader.parse("product: p\ndiscover:\n  - {glob: /opt/*, shell: [bash, -c]}\n", "lab.yml"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("discover[0]").hasMessageContaining("version");
  }
}
