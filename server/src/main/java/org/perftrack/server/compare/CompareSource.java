package org.perftrack.server.compare;

import java.util.List;

/** Detection's version-against-version comparison of one machine, as the compare page needs it. */
public interface CompareSource {

  /** One metric measured in both versions; {@code pValue} null when not computable. */
  record Row(String benchmark, String metric, String unit, String direction, double baseValue, double headValue,
      double ratio, Double pValue, String verdict, boolean paired) {}

  List<Row> compare(String product, String machine, String base, String head);
}
