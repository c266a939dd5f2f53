package org.perftrack.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class PerftrackApplication {

  public static void main(String[] args) {
    SpringApplication.run(PerftrackApplication.class, args);
  }
}
