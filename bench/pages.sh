#!/usr/bin/env bash
# Page-latency check on a big database (not part of mvn verify).
#   bench/pages.sh seed    [dir] [versions] [machines]  fill dir with machines (20) x versions (200) x 50 metrics
#                                                  x 5 samples (2000 versions: 10 M samples; 2000 200: 100 M)
#   bench/pages.sh latency [dir] [requests] [page] start the server on dir and print, per page, p50/p95 of the
#                                                  server time (Server-Timing) and the client p95 (gzip asked)
#   bench/pages.sh explain [dir]                   EXPLAIN ANALYZE of the pages' SQL on dir
#   bench/pages.sh size    [dir]                   disk per table and per stored sample
#   bench/pages.sh detect  [dir] [rounds]          detection's time and CPU for the newest run
# dir defaults to server/target/perf-db. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:?usage: bench/pages.sh seed|latency|explain|size|detect [dir] [requests] [page]}
dir=${2:-server/target/perf-db}
case "$cmd" in
  seed) exec bench/run-main.sh org.perftrack.server.perf.SeedDatabase "$dir" "${4:-20}" "${3:-200}" ;;
  size) exec bench/run-main.sh org.perftrack.server.perf.SizeReport "$dir" ;;
  detect) exec bench/run-main.sh org.perftrack.server.perf.DetectionAtSize "$dir" "${3:-40}" ;;
  explain) exec bench/run-main.sh org.perftrack.server.perf.ExplainQueries "$dir" ;;
  latency) exec bench/run-main.sh org.perftrack.server.perf.PageLatency "$dir" "${3:-200}" "${4:-}" ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
