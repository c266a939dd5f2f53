package org.perftrack.server.ingest;

import java.util.ArrayList;
import java.util.List;
import org.perftrack.wire.RunUpload.ResultUpload;

/** A result's values in another unit of the same dimension (every conversion we know is a factor). */
final class ResultValues {

  private ResultValues() {}

  static ResultUpload convert(ResultUpload r, String unit, double factor) {
    if (factor == 1 && unit.equals(r.unit())) {
      return r;
    }
    if (r.samples() == null) {
      return new ResultUpload(r.benchmark(), r.metric(), unit, r.direction(), null, r.n(), times(r.mean(), factor),
          times(r.stddev(), factor), times(r.min(), factor), times(r.median(), factor), times(r.max(), factor));
    }
    List<Double> samples = new ArrayList<>(r.samples().size());
    for (Double v : r.samples()) {
      samples.add(v * factor);
    }
    return new ResultUpload(r.benchmark(), r.metric(), unit, r.direction(), samples);
  }

  private static Double times(Double value, double factor) {
    return value == null ? null : value * factor;
  }
}
