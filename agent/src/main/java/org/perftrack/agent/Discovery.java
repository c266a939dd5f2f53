package org.perftrack.agent;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.agent.config.DiscoverConfig;
import org.perftrack.agent.config.TargetConfig;

/**
 * Turns {@code discover} entries into targets: every folder the glob finds is one, with {@code {path}}
 * and {@code {name}} replaced in its version, shell and environment. Looked at again before every job,
 * so a snapshot unpacked into the folder is a new target without editing the config.
 */
final class Discovery {

  private Discovery() {}

  static List<TargetConfig> targets(List<DiscoverConfig> entries) throws IOException {
    List<TargetConfig> targets = new ArrayList<TargetConfig>();
    for (DiscoverConfig d : entries) {
      for (Path folder : folders(d.glob)) {
        targets.add(target(d, folder));
      }
    }
    return targets;
  }

  /** The folders matching a glob whose last element holds the pattern: {@code /opt/layers/1.5.*}. */
  static List<Path> folders(String glob) throws IOException {
    String normalized = glob.replace('\\', File.separatorChar).replace('/', File.separatorChar);
    Path pattern = Paths.get(normalized);
    Path parent = pattern.getParent() == null ? Paths.get(".") : pattern.getParent();
    String last = pattern.getFileName().toString();
    PathMatcher matcher = parent.getFileSystem().getPathMatcher("glob:" + last);
    List<Path> found = new ArrayList<Path>();
    if (!Files.isDirectory(parent)) {
      return found;
    }
    try (DirectoryStream<Path> children = Files.newDirectoryStream(parent)) {
      for (Path child : children) {
        if (Files.isDirectory(child) && matcher.matches(child.getFileName())) {
          found.add(child.toAbsolutePath().normalize());
        }
      }
    }
    Collections.sort(found);
    return found;
  }

  private static TargetConfig target(DiscoverConfig d, Path folder) {
    String path = folder.toString();
    String name = folder.getFileName().toString();
    List<String> shell = new ArrayList<String>();
    for (String s : d.shell) {
      shell.add(fill(s, path, name));
    }
    Map<String, String> env = new LinkedHashMap<String, String>();
    for (Map.Entry<String, String> e : d.env.entrySet()) {
      env.put(e.getKey(), fill(e.getValue(), path, name));
    }
    return new TargetConfig(null, d.version == null ? null : fill(d.version, path, name),
        d.versionCommand == null ? null : fill(d.versionCommand, path, name), shell, env);
  }

  static String fill(String template, String path, String name) {
    return template == null ? null : template.replace("{path}", path).replace("{name}", name);
  }
}
