#!/usr/bin/env bash
# Page-latency check on a big database (not part of mvn verify).
#   server/perf.sh seed    [dir]             fill dir with 20 machines x 200 versions x 50 metrics x 5 samples
#   server/perf.sh latency [dir] [requests] [page]  start the server on dir and print p50/p95 of every page
#   server/perf.sh explain [dir]             EXPLAIN ANALYZE of the pages' SQL on dir
# dir defaults to server/target/perf-db. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:?usage: server/perf.sh seed|latency [dir] [requests]}
dir=${2:-server/target/perf-db}
cp=server/target/perf.classpath
mvn -B -q -pl server -am test-compile dependency:build-classpath \
  -Dmdep.outputFile="$PWD/$cp" -Dmdep.includeScope=test >/dev/null
classpath="server/target/test-classes:server/target/classes:$(cat "$cp")"
case "$cmd" in
  seed) exec java -cp "$classpath" org.perftrack.server.perf.SeedDatabase "$dir" ;;
  explain) exec java -cp "$classpath" org.perftrack.server.perf.ExplainQueries "$dir" ;;
  latency) exec java -Xmx1g -cp "$classpath" org.perftrack.server.perf.PageLatency "$dir" "${3:-200}" "${4:-}" ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
