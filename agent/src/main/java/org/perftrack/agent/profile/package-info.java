/**
 * Why a version is slower: the profile of one benchmark at one version, measured from outside the
 * program in passes of its own (never mixed into timing samples): the program's resource usage
 * ({@code wait4}, no privilege needed), its system calls ({@code strace -f -c} on Linux, Cygwin's own
 * {@code strace} on Cygwin) and a sampled CPU profile ({@code perf record}). Each is taken at two
 * iteration counts and reported as the slope, per operation, so set-up (a directory of 2,000 files,
 * calibration) does not count. A tool that is missing or not permitted is named and skipped.
 */
package org.perftrack.agent.profile;
