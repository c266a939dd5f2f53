package org.perftrack.agent;

import picocli.CommandLine;

/** The jar's version, from the manifest when packaged: printed by {@code --version}, sent with runs and to the lab. */
final class AgentVersion implements CommandLine.IVersionProvider {

  static String name() {
    String v = AgentVersion.class.getPackage().getImplementationVersion();
    return "perftrack-agent " + (v == null ? "development" : v);
  }

  @Override
  public String[] getVersion() {
    return new String[] {name()};
  }
}
