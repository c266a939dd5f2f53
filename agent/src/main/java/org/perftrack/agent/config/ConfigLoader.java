package org.perftrack.agent.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
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
    } catch (JsonProcessingException e) {
      throw new ConfigException(source + ": " + describe(e));
    }
    ConfigValidator.check(config, source);
    return config;
  }

  private static String describe(JsonProcessingException e) {
    List<JsonMappingException.Reference> refs = e instanceof JsonMappingException
        ? ((JsonMappingException) e).getPath() : java.util.Collections.<JsonMappingException.Reference>emptyList();
    String path = refs.isEmpty() ? "" : "field '" + pathOf(refs) + "': ";
    String original = e.getOriginalMessage() == null ? "unreadable" : e.getOriginalMessage().trim();
    String message = original.isEmpty() ? "unreadable" : original.split("\\R", 2)[0];
    int cut = message.indexOf(" (class ");
    message = cut > 0 ? message.substring(0, cut) : message;
    if (e.getLocation() != null && e.getLocation().getLineNr() > 0) {
      message += " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }
    return path + message;
  }

  private static String pathOf(List<JsonMappingException.Reference> refs) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : refs) {
      if (ref.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /** Replaces ${NAME} in every string value; an unset variable is an error naming the field. */
  private JsonNode expand(JsonNode node, String source, String path) throws ConfigException {
    if (node instanceof ObjectNode) {
      ObjectNode object = (ObjectNode) node;
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        String child = path.isEmpty() ? name : path + "." + name;
        object.set(name, expand(object.get(name), source, child));
      }
    } else if (node instanceof ArrayNode) {
      ArrayNode array = (ArrayNode) node;
      for (int i = 0; i < array.size(); i++) {
        array.set(i, expand(array.get(i), source, path + "[" + i + "]"));
      }
    } else if (node.isTextual()) {
      return TextNode.valueOf(substitute(node.textValue(), source, path));
    }
    return node;
  }

  private String substitute(String value, String source, String path) throws ConfigException {
    Matcher m = VARIABLE.matcher(value);
    StringBuffer out = new StringBuffer();
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
