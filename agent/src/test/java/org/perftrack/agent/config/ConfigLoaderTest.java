package org.perftrack.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  private final ConfigLoader loader = new ConfigLoader(Map.of("PERFTRACK_TOKEN", "s3cret")::get);

  private static final String DESIGN_EXAMPLE = """
      server: http://localhost:8080
      token: ${PERFTRACK_TOKEN}
      product: cygwin
      machine: xp-lab-01
      repetitions: 5
      scale: 1.0
      benchmarks: [write-64b, fork]
      targets:
        - version: 1.5.19-4
          shell: ["C:\\\\cygwin-1.5.19\\\\bin\\\\bash.exe", "--login", "-c"]
        - version: 1.5.24-2
          shell: ["/bin/bash", "-c"]
          env: {LD_PRELOAD: /opt/layer.so}
      """;

  @Test
  void readsTheDesignExampleAndExpandsTheTokenFromTheEnvironment() throws Exception {
    AgentConfig config = loader.parse(DESIGN_EXAMPLE, "agent.yml");

    assertThat(config.token()).isEqualTo("s3cret");
    assertThat(config.benchmarks()).containsExactly("write-64b", "fork");
    assertThat(config.targets()).hasSize(2);
    assertThat(config.targets().get(0).shell())
        .containsExactly("C:\\cygwin-1.5.19\\bin\\bash.exe", "--login", "-c");
    assertThat(config.targets().get(1).env()).containsEntry("LD_PRELOAD", "/opt/layer.so");
    assertThat(config.scale()).isEqualTo(1.0);
  }

  @Test
  void unsetVariableIsAnErrorNamingFieldAndVariable() {
    ConfigLoader noEnv = new ConfigLoader(name -> null);

    assertThatThrownBy(() -> noEnv.parse(DESIGN_EXAMPLE, "agent.yml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("agent.yml")
        .hasMessageContaining("'token'")
        .hasMessageContaining("PERFTRACK_TOKEN is not set");
  }

  @Test
  void misspelledFieldIsNamed() {
    assertThatThrownBy(() -> loader.parse("product: x\ntragets: []\n", "lab.yml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("lab.yml: ")
        .hasMessageContaining("tragets");
  }

  @Test
  void targetWithoutShellIsNamedByIndex() {
    String yaml = "product: x\ntargets:\n  - version: 1\n    shell: [/bin/sh, -c]\n  - version: 2\n";

    assertThatThrownBy(() -> loader.parse(yaml, "agent.yml"))
        .hasMessageContaining("targets[1].shell");
  }

  @Test
  void targetNeedsExactlyOneOfVersionAndVersionCommand() {
    String yaml = "targets:\n  - version: 1\n    versionCommand: uname -r\n    shell: [sh, -c]\n";

    assertThatThrownBy(() -> loader.parse(yaml, "agent.yml"))
        .hasMessageContaining("targets[0]' needs exactly one of 'version' and 'versionCommand'");
  }

  @Test
  void unknownBenchmarkListsTheKnownOnes() {
    String yaml = "benchmarks: [write-64, fork]\ntargets:\n  - version: 1\n    shell: [sh, -c]\n";

    assertThatThrownBy(() -> loader.parse(yaml, "agent.yml"))
        .hasMessageContaining("'benchmarks'")
        .hasMessageContaining("unknown benchmark write-64;")
        .hasMessageContaining("write-64b");
  }

  @Test
  void wrongTypeNamesTheField() {
    String yaml = "repetitions: many\ntargets:\n  - version: 1\n    shell: [sh, -c]\n";

    assertThatThrownBy(() -> loader.parse(yaml, "agent.yml"))
        .hasMessageContaining("agent.yml: field 'repetitions'");
  }

  @Test
  void zeroRepetitionsAndNegativeScaleAreRefused() {
    String targets = "targets:\n  - version: 1\n    shell: [sh, -c]\n";

    assertThatThrownBy(() -> loader.parse("repetitions: 0\n" + targets, "a.yml")).hasMessageContaining("'repetitions'");
    assertThatThrownBy(() -> loader.parse("scale: -1\n" + targets, "a.yml")).hasMessageContaining("'scale'");
  }

  @Test
  void brokenYamlAndMissingFileNameTheFile(@TempDir Path dir) {
    assertThatThrownBy(() -> loader.parse("targets: [\n", "broken.yml")).hasMessageStartingWith("broken.yml: ");
    assertThatThrownBy(() -> loader.load(dir.resolve("nope.yml"))).hasMessageContaining("nope.yml: no such config file");
  }

  @Test
  void theReadmeExamplesForLinuxWindowsSideBySideAndTheLabAgentParse() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    java.util.regex.Matcher yaml = java.util.regex.Pattern.compile("```yaml\n(.*?)```", java.util.regex.Pattern.DOTALL)
        .matcher(readme);
    List<AgentConfig> configs = new java.util.ArrayList<>();
    while (yaml.find()) {
      configs.add(loader.parse(yaml.group(1), "README.md"));
    }

    assertThat(configs).hasSize(4);
    AgentConfig windows = configs.get(1);
    AgentConfig sideBySide = configs.get(2);
    assertThat(sideBySide.targets().get(0).product()).as("the native baseline is its own product").isEqualTo("linux");
    assertThat(sideBySide.targets().get(1).product()).as("the layer is the config's product").isNull();
    assertThat(windows.workDir()).isEqualTo("C:\\perftrack\\work");
    assertThat(windows.targets().get(2).shell().get(0)).isEqualTo("C:\\Program Files\\cygwin 1.7\\bin\\bash.exe");
    assertThat(windows.targets().get(2).versionCommand()).isEqualTo("uname -r");
    AgentConfig lab = configs.get(3);
    assertThat(lab.discover().get(0).glob).isEqualTo("C:\\cygwin-snapshots\\*");
    assertThat(lab.discover().get(0).shell).containsExactly("{path}\\bin\\bash.exe", "--login", "-c");
    assertThat(lab.heartbeat()).isEqualTo(60);
  }

  @Test
  void loadsFromAFile(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("agent.yml"), DESIGN_EXAMPLE);

    assertThat(loader.load(file).targets()).extracting(TargetConfig::version).isEqualTo(List.of("1.5.19-4", "1.5.24-2"));
  }
}
