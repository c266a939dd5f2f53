package org.perftrack.server.profiles;

import java.util.ArrayList;
import java.util.List;
import org.perftrack.server.lab.ProfileJobs;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.server.problems.Names;
import org.springframework.stereotype.Service;

/**
 * Checks a profile against its job and the limits, then stores it: every bad field is named and nothing is stored
 * (the job's product, machine, one of its versions and benchmarks; finite per-operation figures; shares within 0..1;
 * at most {@value #MAX_SYSCALLS} system calls, {@value #MAX_COUNTERS} counters, {@value #MAX_FUNCTIONS} functions;
 * raw tables of at most 64 KiB).
 */
@Service
class ProfileStore {

  static final int MAX_SYSCALLS = 1000;
  static final int MAX_COUNTERS = 50;
  static final int MAX_FUNCTIONS = 100;
  static final int MAX_MISSING = 20;
  static final int MAX_RAW = 64 * 1024;
  static final int MAX_NAME = 200;
  static final int MAX_TEXT = 1000;

  private final Profiles profiles;

  ProfileStore(Profiles profiles) {
    this.profiles = profiles;
  }

  long store(ProfileJobs.HeldJob job, ProfileUpload u) {
    List<FieldProblem> problems = new ArrayList<>();
    same("product", u.product(), job.product(), problems);
    same("machine", u.machine(), job.machine(), problems);
    among("version", u.version(), job.versions(), problems);
    among("benchmark", u.benchmark(), job.benchmarks(), problems);
    if (u.operations() == null || u.operations() < 0) {
      problems.add(new FieldProblem("operations", "give the operations the slope was taken over (0 or more)"));
    }
    List<StoredProfile.Syscall> syscalls = syscalls(u, problems);
    List<StoredProfile.Counter> counters = counters(u, problems);
    List<StoredProfile.Function> functions = functions(u, problems);
    List<String> missing = u.missing() == null ? List.of() : u.missing();
    if (missing.size() > MAX_MISSING) {
      problems.add(new FieldProblem("missing", "at most " + MAX_MISSING + " entries"));
    }
    for (int i = 0; i < missing.size() && i < MAX_MISSING; i++) {
      Names.checkText("missing[" + i + "]", missing.get(i), MAX_TEXT, true, problems);
    }
    raw("rawSyscalls", u.rawSyscalls(), problems);
    raw("rawFunctions", u.rawFunctions(), problems);
    if (!problems.isEmpty()) {
      throw new InvalidInput(problems);
    }
    return profiles.insert(job.id(), job.product(), job.machine(), u.version(), u.benchmark(), u.operations(),
        syscalls, counters, functions, missing, u.rawSyscalls(), u.rawFunctions());
  }

  private static List<StoredProfile.Syscall> syscalls(ProfileUpload u, List<FieldProblem> problems) {
    List<StoredProfile.Syscall> rows = new ArrayList<>();
    List<ProfileUpload.SyscallIn> in = limited("syscalls", u.syscalls(), MAX_SYSCALLS, problems);
    for (int i = 0; i < in.size(); i++) {
      String at = "syscalls[" + i + "]";
      ProfileUpload.SyscallIn s = in.get(i);
      if (s == null) {
        problems.add(new FieldProblem(at, "must be an object"));
        continue;
      }
      if (Names.checkText(at + ".name", s.name(), MAX_NAME, true, problems)
          & perOp(at + ".callsPerOp", s.callsPerOp(), problems) & perOp(at + ".errorsPerOp", s.errorsPerOp(), problems)
          & share(at + ".timeShare", s.timeShare(), problems)) {
        rows.add(new StoredProfile.Syscall(s.name(), s.callsPerOp(), s.errorsPerOp(), s.timeShare()));
      }
    }
    return rows;
  }

  private static List<StoredProfile.Counter> counters(ProfileUpload u, List<FieldProblem> problems) {
    List<StoredProfile.Counter> rows = new ArrayList<>();
    List<ProfileUpload.CounterIn> in = limited("counters", u.counters(), MAX_COUNTERS, problems);
    for (int i = 0; i < in.size(); i++) {
      String at = "counters[" + i + "]";
      ProfileUpload.CounterIn c = in.get(i);
      if (c == null) {
        problems.add(new FieldProblem(at, "must be an object"));
      } else if (Names.checkText(at + ".name", c.name(), MAX_NAME, true, problems)
          & finite(at + ".perOp", c.perOp(), problems)) {
        rows.add(new StoredProfile.Counter(c.name(), c.perOp()));
      }
    }
    return rows;
  }

  private static List<StoredProfile.Function> functions(ProfileUpload u, List<FieldProblem> problems) {
    List<StoredProfile.Function> rows = new ArrayList<>();
    List<ProfileUpload.FunctionIn> in = limited("functions", u.functions(), MAX_FUNCTIONS, problems);
    for (int i = 0; i < in.size(); i++) {
      String at = "functions[" + i + "]";
      ProfileUpload.FunctionIn f = in.get(i);
      if (f == null) {
        problems.add(new FieldProblem(at, "must be an object"));
      } else if (Names.checkText(at + ".name", f.name(), MAX_TEXT, true, problems)
          & Names.checkText(at + ".module", f.module(), MAX_TEXT, true, problems)
          & share(at + ".selfShare", f.selfShare(), problems)) {
        rows.add(new StoredProfile.Function(f.name(), f.module(), f.selfShare()));
      }
    }
    return rows;
  }

  private static <T> List<T> limited(String field, List<T> values, int max, List<FieldProblem> problems) {
    if (values == null) {
      return List.of();
    }
    if (values.size() > max) {
      problems.add(new FieldProblem(field, "at most " + max + " entries, got " + values.size()));
      return List.of();
    }
    return values;
  }

  private static boolean perOp(String field, Double value, List<FieldProblem> problems) {
    if (value == null || !Double.isFinite(value) || value < 0) {
      problems.add(new FieldProblem(field, "must be a number of 0 or more"));
      return false;
    }
    return true;
  }

  private static boolean finite(String field, Double value, List<FieldProblem> problems) {
    if (value == null || !Double.isFinite(value)) {
      problems.add(new FieldProblem(field, "must be a number"));
      return false;
    }
    return true;
  }

  private static boolean share(String field, Double value, List<FieldProblem> problems) {
    if (value == null || !(value >= 0 && value <= 1)) {
      problems.add(new FieldProblem(field, "must be a share between 0 and 1"));
      return false;
    }
    return true;
  }

  private static void same(String field, String value, String expected, List<FieldProblem> problems) {
    if (!expected.equals(value)) {
      problems.add(new FieldProblem(field, "the job profiles " + field + " " + expected));
    }
  }

  private static void among(String field, String value, List<String> allowed, List<FieldProblem> problems) {
    if (value == null || !allowed.contains(value)) {
      problems.add(new FieldProblem(field, "must be one of the job's: " + String.join(", ", allowed)));
    }
  }

  private static void raw(String field, String value, List<FieldProblem> problems) {
    if (value != null && value.length() > MAX_RAW) {
      problems.add(new FieldProblem(field, "at most 64 KiB of tracer output, got " + value.length() + " characters"));
    }
  }
}
