package org.perftrack.formats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The registry of known file formats. */
public final class Formats {

  private static final Map<String, ResultFormat> FORMATS = new LinkedHashMap<>();

  static {
    register(new PerftrackFormat());
    register(new HyperfineFormat());
    register(new GbenchFormat());
    register(new JmhFormat());
    register(new PytestBenchmarkFormat());
    register(new CriterionFormat());
    register(new GoBenchFormat());
    register(new BenchmarkDotNetFormat());
    register(new Catch2Format());
    register(new AsvFormat());
    register(new BmfFormat());
    register(new CargoBenchFormat());
    register(new VitestFormat());
    register(new PyperfFormat());
    register(new BenchmarkJsFormat());
  }

  private Formats() {}

  private static void register(ResultFormat format) {
    FORMATS.put(format.name(), format);
  }

  /** The format of that name; {@link FormatException} listing the known ones when there is none. */
  public static ResultFormat byName(String name) throws FormatException {
    ResultFormat format = FORMATS.get(name);
    if (format == null) {
      throw new FormatException("unknown format '" + name + "'; known formats: " + String.join(", ", names()));
    }
    return format;
  }

  public static List<String> names() {
    return Text.copy(FORMATS.keySet());
  }
}
