#!/usr/bin/env bash
# Runs a benchmark or tool main class from the server's test tree with the full test classpath.
# Usage: bench/run-main.sh org.perftrack.server.bench.IngestBenchmark [args…]
# Benchmarks are not part of `mvn verify`; they print their figures to stdout. JAVA_OPTS go to the JVM, e.g.
# JAVA_OPTS=-XX:StartFlightRecording=filename=upload.jfr,settings=profile for a profile (`jfr print --events
# jdk.ExecutionSample upload.jfr`, or `jfr summary`).
set -euo pipefail
cd "$(dirname "$0")/.."
main=$1; shift
cp_file=server/target/bench-classpath.txt
mvn -B -q -pl server -am -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/$cp_file" -Dmdep.includeScope=test >/dev/null
exec java -Xmx4g ${JAVA_OPTS:-} -cp "server/target/test-classes:server/target/classes:$(cat "$cp_file")" "$main" "$@"
