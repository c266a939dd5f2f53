package org.perftrack.server.profiles;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.perftrack.server.profiles.ProfileComparison.CounterChange;
import org.perftrack.server.profiles.ProfileComparison.FunctionChange;
import org.perftrack.server.profiles.ProfileComparison.SyscallChange;

/**
 * The difference of two profiles of one benchmark, per operation. System-call counts are exact (a traced run counts
 * every call), so a change of half a call per operation or more is a change; counters and CPU shares are measured,
 * and only a change far beyond an A/A pair's is put into the sentence.
 */
final class ProfileDiff {

  /** Calls per operation that differ by this much are a change (an A/A pair differs by far less). */
  static final double CALL_CHANGE = 0.5;
  /** Context switches per operation that grew by this much are worth the sentence. */
  static final double SWITCH_CHANGE = 0.5;
  /** CPU per operation that grew by this factor (and by a microsecond at least) is worth the sentence. */
  static final double CPU_GROWTH = 1.5;
  static final int MAX_FUNCTIONS = 20;
  static final int MAX_SYSCALLS = 100;

  static final String VOLUNTARY = "voluntary-context-switches";
  static final String INVOLUNTARY = "involuntary-context-switches";
  static final String USER_US = "user-cpu-us";
  static final String SYS_US = "system-cpu-us";

  private ProfileDiff() {}

  static ProfileComparison compare(StoredProfile base, StoredProfile head) {
    List<SyscallChange> syscalls = syscalls(base, head);
    List<CounterChange> counters = counters(base, head);
    List<FunctionChange> functions = functions(base, head);
    Set<String> missing = new LinkedHashSet<>();
    base.missing().forEach(m -> missing.add(m + " (" + base.version() + ")"));
    head.missing().forEach(m -> missing.add(m + " (" + head.version() + ")"));
    String sentence = sentence(base, head, syscalls, functions);
    List<ProfileComparison.RawOutput> raw = new ArrayList<>();
    for (StoredProfile p : List.of(base, head)) {
      if (p.rawSyscalls()) {
        raw.add(new ProfileComparison.RawOutput(p.version(), "syscalls", p.id()));
      }
      if (p.rawFunctions()) {
        raw.add(new ProfileComparison.RawOutput(p.version(), "functions", p.id()));
      }
    }
    return new ProfileComparison(ProfileStatus.DONE, head.machine(), head.benchmark(), base.version(), head.version(),
        sentence, syscalls, counters, functions, List.copyOf(missing), base.id(), head.id(), raw, null);
  }

  static List<SyscallChange> syscalls(StoredProfile base, StoredProfile head) {
    Set<String> names = new LinkedHashSet<>();
    base.syscalls().forEach(s -> names.add(s.name()));
    head.syscalls().forEach(s -> names.add(s.name()));
    List<SyscallChange> rows = new ArrayList<>();
    for (String name : names) {
      StoredProfile.Syscall a = base.syscall(name);
      StoredProfile.Syscall b = head.syscall(name);
      rows.add(new SyscallChange(name, a.callsPerOp(), b.callsPerOp(), a.timeShare(), b.timeShare(),
          change(a.callsPerOp(), b.callsPerOp())));
    }
    rows.sort(Comparator.comparingDouble((SyscallChange s) -> -Math.abs(s.perOpVersion() - s.perOpBaseline()))
        .thenComparing(s -> -s.perOpVersion()));
    return rows.size() > MAX_SYSCALLS ? List.copyOf(rows.subList(0, MAX_SYSCALLS)) : rows;
  }

  private static String change(double before, double after) {
    if (Math.abs(after - before) < CALL_CHANGE) {
      return "same";
    }
    if (before < CALL_CHANGE / 10) {
      return "appeared";
    }
    return after < CALL_CHANGE / 10 ? "vanished" : "changed";
  }

  static List<CounterChange> counters(StoredProfile base, StoredProfile head) {
    Map<String, CounterChange> rows = new LinkedHashMap<>();
    for (StoredProfile.Counter c : head.counters()) {
      rows.put(c.name(), new CounterChange(c.name(), orZero(base.counter(c.name())), c.perOp()));
    }
    for (StoredProfile.Counter c : base.counters()) {
      rows.putIfAbsent(c.name(), new CounterChange(c.name(), c.perOp(), orZero(head.counter(c.name()))));
    }
    return List.copyOf(rows.values());
  }

  /**
   * Functions whose share grew, ranked by the part of the growth in CPU per operation each accounts for: share ×
   * CPU per operation in the version, less the same in the baseline, over the growth. Without CPU counters, by
   * the growth of the share alone.
   */
  static List<FunctionChange> functions(StoredProfile base, StoredProfile head) {
    double cpuBase = cpu(base);
    double cpuHead = cpu(head);
    double growth = cpuHead - cpuBase;
    boolean weighed = Double.isFinite(growth) && growth > 0;
    Map<String, Double> before = new LinkedHashMap<>();
    base.functions().forEach(f -> before.merge(f.module() + "\t" + f.name(), f.selfShare(), Double::sum));
    List<FunctionChange> rows = new ArrayList<>();
    for (StoredProfile.Function f : head.functions()) {
      double was = before.getOrDefault(f.module() + "\t" + f.name(), 0.0);
      if (f.selfShare() <= was) {
        continue;
      }
      double explains = weighed ? (f.selfShare() * cpuHead - was * cpuBase) / growth : f.selfShare() - was;
      rows.add(new FunctionChange(f.name(), f.module(), was, f.selfShare(), round(Math.max(0, Math.min(1, explains)))));
    }
    rows.sort(Comparator.comparingDouble(FunctionChange::explains).reversed());
    return rows.size() > MAX_FUNCTIONS ? List.copyOf(rows.subList(0, MAX_FUNCTIONS)) : rows;
  }

  private static double cpu(StoredProfile p) {
    return p.counter(USER_US) + p.counter(SYS_US);
  }

  static String sentence(StoredProfile base, StoredProfile head, List<SyscallChange> syscalls,
      List<FunctionChange> functions) {
    String op = "each " + Operations.of(head.benchmark()) + " in " + head.version();
    List<String> calls = new ArrayList<>();
    for (SyscallChange s : syscalls) {
      double d = s.perOpVersion() - s.perOpBaseline();
      if (!"same".equals(s.change()) && calls.size() < 3) {
        calls.add(number(Math.abs(d)) + (d > 0 ? " more " : " fewer ") + s.name() + "()");
      }
    }
    double switches = orZero(head.counter(VOLUNTARY)) + orZero(head.counter(INVOLUNTARY))
        - orZero(base.counter(VOLUNTARY)) - orZero(base.counter(INVOLUNTARY));
    List<String> parts = new ArrayList<>();
    if (!calls.isEmpty()) {
      parts.add(join(calls) + " calls");
    }
    if (Math.abs(switches) >= SWITCH_CHANGE) {
      parts.add(number(Math.abs(switches)) + (switches > 0 ? " more" : " fewer") + " context switches");
    }
    String cpu = cpuPart(base, head, calls.isEmpty(), functions);
    if (parts.isEmpty() && cpu == null) {
      return "the profiles of " + base.version() + " and " + head.version() + " show the same system calls and "
          + "counters per operation" + unmeasured(base, head);
    }
    String sentence = op + (parts.isEmpty() ? "" : " makes " + join(parts));
    if (cpu != null) {
      sentence += (parts.isEmpty() ? " " : ", and ") + cpu;
    }
    return sentence + meaning(syscalls, switches) + unmeasured(base, head);
  }

  /** "uses 45 µs more user CPU with the same system calls, 93% of it in profilelayer_burn (profilelayer.so)". */
  private static String cpuPart(StoredProfile base, StoredProfile head, boolean sameCalls,
      List<FunctionChange> functions) {
    double user = head.counter(USER_US) - base.counter(USER_US);
    double system = head.counter(SYS_US) - base.counter(SYS_US);
    boolean userGrew = grew(base.counter(USER_US), head.counter(USER_US));
    boolean systemGrew = grew(base.counter(SYS_US), head.counter(SYS_US));
    if (!userGrew && !systemGrew) {
      return null;
    }
    String what = userGrew && (!systemGrew || user >= system) ? micros(user) + " more user CPU"
        : micros(system) + " more system CPU";
    String text = "uses " + what + (sameCalls && hasCalls(head) ? " with the same system calls" : "");
    if (!functions.isEmpty() && functions.get(0).explains() >= 0.3) {
      FunctionChange f = functions.get(0);
      text += ", " + Math.round(f.explains() * 100) + "% of it in " + f.name() + " (" + f.module() + ")";
    }
    return text;
  }

  private static boolean hasCalls(StoredProfile p) {
    return !p.syscalls().isEmpty();
  }

  private static boolean grew(double before, double after) {
    return Double.isFinite(before) && Double.isFinite(after) && after - before >= 1.0
        && after >= CPU_GROWTH * Math.max(before, 0.01);
  }

  /** What a pattern of changes usually is: a round trip to another thread, a sleep. */
  private static String meaning(List<SyscallChange> syscalls, double switches) {
    boolean reads = grown(syscalls, "read");
    boolean writes = grown(syscalls, "write");
    if (reads && writes && switches >= SWITCH_CHANGE) {
      return " — a round trip to another thread";
    }
    if (grown(syscalls, "nanosleep") || grown(syscalls, "clock_nanosleep")) {
      return " — it sleeps";
    }
    if (grown(syscalls, "futex") && switches >= SWITCH_CHANGE) {
      return " — it waits for another thread";
    }
    return "";
  }

  private static boolean grown(List<SyscallChange> syscalls, String name) {
    return syscalls.stream().anyMatch(s -> s.name().equals(name) && s.perOpVersion() - s.perOpBaseline() >= CALL_CHANGE);
  }

  private static String unmeasured(StoredProfile base, StoredProfile head) {
    Set<String> tools = new LinkedHashSet<>();
    for (String m : base.missing()) {
      tools.add(m.split(":", 2)[0]);
    }
    for (String m : head.missing()) {
      tools.add(m.split(":", 2)[0]);
    }
    return tools.isEmpty() ? "" : " (not measured: " + String.join(", ", tools) + ")";
  }

  private static String join(List<String> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
  }

  static String number(double x) {
    return Math.abs(x - Math.rint(x)) < 0.05 ? String.format(Locale.ROOT, "%.0f", x) : String.format(Locale.ROOT, "%.1f", x);
  }

  private static String micros(double us) {
    String n = us >= 10 ? String.format(Locale.ROOT, "%.0f", us) : String.format(Locale.ROOT, "%.1f", us);
    return (n.endsWith(".0") ? n.substring(0, n.length() - 2) : n) + " µs";
  }

  private static double orZero(double x) {
    return Double.isFinite(x) ? x : 0;
  }

  private static double round(double x) {
    return Math.round(x * 1000) / 1000.0;
  }
}
