#!/usr/bin/env bash
# Before/after page latency, alternating, on copies of one seeded database (the machine is shared: compare ratios).
#   bench/pages-ab.sh snapshot NAME                 copy this worktree's compiled classes to $ROOT/NAME (build first,
#                                                   e.g. with bench/pages.sh explain, or mvn -o -q -pl server -am test-compile)
#   bench/pages-ab.sh run BEFORE AFTER DB1 DB2 [requests] [page]
#                                                   PageLatency of BEFORE on DB1, AFTER on DB2, twice, load printed;
#                                                   AFTER's PageLatency drives both, so the page list is the same
# DB2 is a copy of DB1 (cp -a while no server runs on it). ROOT defaults to /tmp/perftrack-classes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${ROOT:-/tmp/perftrack-classes}
modules="server/target/classes server/target/test-classes web/target/classes migrations/target/classes
  formats/target/classes wire/target/classes agent/target/classes"
case "${1:?usage: bench/pages-ab.sh snapshot NAME | run BEFORE AFTER DB1 DB2 [requests] [page]}" in
  snapshot)
    to="$root/${2:?name}"
    rm -rf "$to" && mkdir -p "$to"
    for m in $modules; do mkdir -p "$to/$m" && cp -r "$m/." "$to/$m/"; done
    mvn -B -q -o -pl server -am dependency:build-classpath -Dmdep.outputFile="$to/cp.txt" -Dmdep.includeScope=test >/dev/null
    sed -i "s#$PWD/#$to/#g" "$to/cp.txt"
    git rev-parse --short HEAD > "$to/COMMIT"
    echo "$to ($(cat "$to/COMMIT"))" ;;
  run)
    before="$root/$2"; after="$root/$3"; db1=$4; db2=$5; n=${6:-40}; only=${7:-}
    one() { # label classes db
      echo "=== $1 ($(cat "$2/COMMIT")) on $3, load $(uptime | sed 's/.*load average: //')"
      # the snapshot's own modules come first: the class path may name stale module jars of ~/.m2
      mods=$(for m in $modules; do case $m in *test-classes) ;; *) printf '%s:' "$2/$m" ;; esac; done)
      java -Xmx4g -cp "$after/server/target/test-classes:$mods$(cat "$2/cp.txt")" \
        org.perftrack.server.perf.PageLatency "$3" "$n" "$only" 2>/dev/null | grep -E '^(page|server time|chart summaries|[a-z].* HTTP)'
      echo "--- load after: $(uptime | sed 's/.*load average: //')"
    }
    for r in 1 2; do one "before, round $r" "$before" "$db1"; one "after, round $r" "$after" "$db2"; done ;;
  *) echo "unknown command $1" >&2; exit 2 ;;
esac
