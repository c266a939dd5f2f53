package org.perftrack.agent.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * The config's {@code spool}: a folder ({@code spool: D:\perftrack\spool}), or the folder and how many days sent
 * runs stay in it ({@code spool: {dir: …, keep-sent: 7}}). A plain class with public fields: the agent runs on Java 8.
 */
public final class SpoolConfig {

  public String dir;

  @JsonProperty("keep-sent")
  public Integer keepSent;

  public SpoolConfig() {}

  @JsonCreator
  public SpoolConfig(String dir) {
    this.dir = dir;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof SpoolConfig && Objects.equals(dir, ((SpoolConfig) other).dir)
        && Objects.equals(keepSent, ((SpoolConfig) other).keepSent);
  }

  @Override
  public int hashCode() {
    return Objects.hash(dir, keepSent);
  }

  @Override
  public String toString() {
    return "SpoolConfig[dir=" + dir + ", keep-sent=" + keepSent + "]";
  }
}
