package org.perftrack.agent.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Reads agent.yml: YAML, {@code ${NAME}} replaced from the environment, then checked field by field. */
public final class ConfigLoader {

  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final YAMLMapper YAML = YAMLMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private final UnaryOperator<String> environment;

  /** @param environment looks a variable up; null when it is not set */
  public ConfigLoader(UnaryOperator<String> environment) {
    this.environment = environment;
  }

  public static ConfigLoader fromSystemEnvironment() {
    return new ConfigLoader(System::getenv);
  }

  public AgentConfig load(Path file) throws ConfigException {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file + ": no such config file");
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read: " + e.getMessage());
    }
    return parse(text, file.toString());
  }

  public AgentConfig parse(String yaml, String source) throws ConfigException {
    AgentConfig config;
    try {
      JsonNode tree = YAML.readTree(yaml);
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        throw new ConfigException(source + ": the config file is empty");
      }
      if (!tree.isObject()) {
        throw new ConfigException(source + ": expected a mapping of settings (server:, product:, targets: …)");
      }
      config = YAML.treeToValue(expand(tree, source, ""), AgentConfig.class);
    } catch (JacksonException e) {
      throw new ConfigException(source + ": " + describe(e));
    }
    ConfigValidator.check(config, source);
    return config;
  }

  private static String describe(JacksonException e) {
    String path = e.getPath().isEmpty() ? "" : "field '" + pathOf(e) + "': ";
    String message = e.getOriginalMessage().lines().findFirst().orElse("unreadable");
    int cut = message.indexOf(" (class ");
    message = cut > 0 ? message.substring(0, cut) : message;
    if (e.getLocation() != null && e.getLocation().getLineNr() > 0) {
      message += " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }
    return path + message;
  }

  private static String pathOf(JacksonException e) {
    StringBuilder path = new StringBuilder();
    for (JacksonException.Reference ref : e.getPath()) {
      if (ref.getPropertyName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /** Replaces ${NAME} in every string value; an unset variable is an error naming the field. */
  private JsonNode expand(JsonNode node, String source, String path) throws ConfigException {
    if (node instanceof ObjectNode object) {
      for (String name : new ArrayList<>(object.propertyNames())) {
        String child = path.isEmpty() ? name : path + "." + name;
        object.set(name, expand(object.get(name), source, child));
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        array.set(i, expand(array.get(i), source, path + "[" + i + "]"));
      }
    } else if (node.isString()) {
      return StringNode.valueOf(substitute(node.stringValue(), source, path));
    }
    return node;
  }

  private String substitute(String value, String source, String path) throws ConfigException {
    Matcher m = VARIABLE.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement = environment.apply(m.group(1));
      if (replacement == null) {
        throw new ConfigException(source + ": field '" + path + "' uses ${" + m.group(1)
            + "}, but the environment variable " + m.group(1) + " is not set");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }
}
