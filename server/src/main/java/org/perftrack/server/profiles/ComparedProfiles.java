package org.perftrack.server.profiles;

import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The profiles the compare page shows ({@code @comparedProfiles} in its template): for each benchmark of a machine
 * that the lab profiled at both versions compared, the difference of the newest profiles, as a regression's "Why"
 * card says it.
 */
@Component("comparedProfiles")
public class ComparedProfiles {

  /** The most benchmarks the page lists. */
  static final int LIMIT = 50;

  private final Profiles profiles;

  ComparedProfiles(Profiles profiles) {
    this.profiles = profiles;
  }

  /** Empty when the versions or the product are not both given, or nothing was profiled at both. */
  public List<ProfileComparison> of(String product, String machine, String base, String head) {
    if (product == null || base == null || head == null || base.equals(head)) {
      return List.of();
    }
    return profiles.both(product, machine, base, head, LIMIT).stream()
        .map(b -> ProfileDiff.compare(
            profiles.newest(product, b.machine(), b.benchmark(), base).orElseThrow(),
            profiles.newest(product, b.machine(), b.benchmark(), head).orElseThrow()))
        .toList();
  }
}
