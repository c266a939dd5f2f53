package org.perftrack.server.bench;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.perftrack.formats.Formats;
import org.perftrack.server.db.Json;
import org.perftrack.formats.RunContext;
import org.perftrack.wire.RunUpload;

/**
 * The heap a request body takes while it is parsed, per byte of it, for bodies written to take as much as they can
 * (one-digit samples) and for ordinary ones: what {@code LimitsProperties.HEAP_PER_BODY_BYTE} must cover. Each figure
 * is the heap still reachable with the body and what was made of it held (after a full GC), over the body's length.
 * Run: {@code bench/run-main.sh org.perftrack.server.bench.BodyHeapBenchmark [MB]}
 */
public final class BodyHeapBenchmark {

  private BodyHeapBenchmark() {}

  public static void main(String[] args) throws Exception {
    int mb = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    int size = mb << 20;
    RunContext context = new RunContext("p", "1.0", "m", null);
    report("upload JSON, samples 1,1,1", upload(size, "1"), b -> parse(b));
    report("upload JSON, samples 48.213,", upload(size, "48.213"), b -> parse(b));
    report("hyperfine times [1,1,1] (tree)", hyperfine(size, "1"), b -> Json.MAPPER.readTree(b));
    report("hyperfine times [1,1,1] (converted)", hyperfine(size, "1"),
        b -> convert("hyperfine", b, context));
    report("hyperfine times [0.0123,…] (converted)", hyperfine(size, "0.0123"),
        b -> convert("hyperfine", b, context));
    report("go-bench text, short lines (converted)", goBench(size), b -> convert("go-bench", b, context));
  }

  private static Object parse(byte[] body) {
    return Json.MAPPER.readValue(body, RunUpload.class);
  }

  private static Object convert(String format, byte[] body, RunContext context) {
    try {
      return Formats.byName(format).convert(body, "body", context);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void report(String what, byte[] body, Function<byte[], Object> make) {
    long before = used();
    Object made = make.apply(body);
    long after = used();
    System.out.printf("%-42s %5.1f MB body: %6.1f MB held, %4.1f bytes of heap per byte%n", what,
        body.length / 1048576.0, (after - before) / 1048576.0, (after - before) / (double) body.length);
    if (made.hashCode() == 42) {
      System.out.print("");
    }
  }

  private static long used() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static byte[] upload(int size, String sample) {
    StringBuilder s = new StringBuilder(size + 1024);
    s.append("{\"id\":\"6f1c8a8e-8d3e-4a63-9a7f-3b1f1d0c1a01\",\"product\":\"p\",\"version\":\"1.0\",")
        .append("\"machine\":{\"name\":\"m\"},\"results\":[{\"benchmark\":\"b\",\"metric\":\"time\",\"unit\":\"ns\",")
        .append("\"direction\":\"lower_is_better\",\"samples\":[").append(sample);
    while (s.length() < size - 16) {
      s.append(',').append(sample);
    }
    return s.append("]}]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] hyperfine(int size, String sample) {
    StringBuilder s = new StringBuilder(size + 1024);
    s.append("{\"results\":[{\"command\":\"true\",\"mean\":1,\"stddev\":0,\"median\":1,\"user\":0,\"system\":0,")
        .append("\"min\":1,\"max\":1,\"times\":[").append(sample);
    while (s.length() < size - 16) {
      s.append(',').append(sample);
    }
    return s.append("]}]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] goBench(int size) {
    StringBuilder s = new StringBuilder(size + 1024);
    s.append("goos: linux\ngoarch: amd64\npkg: p\n");
    List<String> lines = new ArrayList<>();
    lines.add("BenchmarkA-8 1 1 ns/op\n");
    while (s.length() < size - 64) {
      s.append(lines.get(0));
    }
    return s.append("PASS\nok p 1.0s\n").toString().getBytes(StandardCharsets.UTF_8);
  }
}
