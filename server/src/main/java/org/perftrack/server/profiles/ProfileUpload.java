package org.perftrack.server.profiles;

import java.util.List;

/** The body of {@code POST /api/v1/profiles}; boxed numbers so that a missing one is named, not read as 0. */
record ProfileUpload(Long job, String product, String machine, String version, String benchmark, Long operations,
    List<SyscallIn> syscalls, List<CounterIn> counters, List<FunctionIn> functions, List<String> missing,
    String rawSyscalls, String rawFunctions) {

  record SyscallIn(String name, Double callsPerOp, Double errorsPerOp, Double timeShare) {}

  record CounterIn(String name, Double perOp) {}

  record FunctionIn(String name, String module, Double selfShare) {}
}
