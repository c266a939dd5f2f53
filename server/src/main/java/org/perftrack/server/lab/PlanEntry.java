package org.perftrack.server.lab;

import java.util.List;

/**
 * One entry of a job's plan: measure {@code benchmark} at these versions only (interleaved with the job's other
 * entries, in one session); {@code metric} is the series the entry is for (the agent measures the benchmark, which
 * reports all its metrics). Confirm and profile jobs carry a plan; the older kinds carry only the flat
 * {@code versions} and {@code benchmarks}, and for a planned job those are the plan's union.
 */
public record PlanEntry(String benchmark, String metric, List<String> versions) {

  public PlanEntry {
    versions = List.copyOf(versions);
  }
}
