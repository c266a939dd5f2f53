package org.perftrack.agent.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A folder of installations, each one a target: {@code glob} finds the folders (a pattern in the last
 * path element, e.g. {@code /opt/layers/*} or {@code C:\cygwin-snapshots\*}), and in {@code version},
 * {@code versionCommand}, {@code shell} and {@code env} the words {@code {path}} and {@code {name}} stand
 * for each folder's path and name. A plain class with public fields: the agent runs on Java 8.
 */
public final class DiscoverConfig {

  public String glob;
  public String version;
  public String versionCommand;
  public List<String> shell = new ArrayList<String>();
  public Map<String, String> env = new LinkedHashMap<String, String>();
}
