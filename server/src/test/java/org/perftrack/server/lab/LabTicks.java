package org.perftrack.server.lab;

import org.springframework.context.ApplicationContext;

/** For tests of other packages: one tick of a server's lab clock, as its thread makes one every perftrack.lab.tick. */
public final class LabTicks {

  private LabTicks() {
  }

  public static void tick(ApplicationContext server) {
    server.getBean(LabTicker.class).tick();
  }
}
