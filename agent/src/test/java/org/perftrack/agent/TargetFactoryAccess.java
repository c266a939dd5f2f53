package org.perftrack.agent;

/** Lets tests of other packages build the version script exactly as the agent does. */
public final class TargetFactoryAccess {

  private TargetFactoryAccess() {}

  public static String versionScript(String versionCommand) {
    return TargetFactory.versionScript(versionCommand);
  }
}
