package org.perftrack.server;

import org.perftrack.server.backup.DatabaseCommands;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class PerftrackApplication {

  public static void main(String[] args) {
    if (DatabaseCommands.handles(args)) {
      System.exit(DatabaseCommands.run(args, System.out, System.err));
    }
    SpringApplication.run(PerftrackApplication.class, args);
  }
}
