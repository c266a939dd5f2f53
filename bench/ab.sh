#!/usr/bin/env bash
# Paired before/after figures: a benchmark of this tree run against a server built from another commit and against
# this tree's own, alternating (ABBA), back to back on the same machine, so that the ratio holds whatever the load.
#   bench/ab.sh run COMMIT ROUNDS MAINCLASS [args…]
#       builds COMMIT (git archive into $ROOT/COMMIT-SHA, kept for the next run) and a copy of this tree's build,
#       then ROUNDS times MAINCLASS against each server (its BenchServer starts the server from the class path in
#       -Dbench.server.cp); prints every run's output, then per `figure NAME VALUE` line the median of each side and
#       after/before. E.g. bench/ab.sh run 0a12cc2 3 org.perftrack.server.bench.ImportClientsBenchmark 1000 200 1 1,4
#   bench/ab.sh build COMMIT     only the build of COMMIT; prints the file holding its server's class path
# ROOT defaults to /tmp/perftrack-ab. The benchmark's own code (the client) is the after side's: this tree's, or with
# AFTER=COMMIT that commit's build (then the work tree may change meanwhile).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${ROOT:-/tmp/perftrack-ab}
modules="server migrations web formats wire agent"

# compiled classes of the tree in $1 copied to $2, with its runtime (server.cp) and test (test.cp) class paths
snapshot() {
  local src=$1 to=$2
  (cd "$src" && mvn -B -q -o -pl server -am -DskipTests test-compile dependency:build-classpath \
    -Dmdep.outputFile="$to.runtime" -Dmdep.includeScope=runtime >/dev/null \
    && mvn -B -q -o -pl server -am -DskipTests test-compile dependency:build-classpath \
    -Dmdep.outputFile="$to.test" -Dmdep.includeScope=test >/dev/null)
  rm -rf "$to" && mkdir -p "$to"
  for m in $modules; do mkdir -p "$to/$m/target" && cp -r "$src/$m/target/classes" "$to/$m/target/"; done
  cp -r "$src/server/target/test-classes" "$to/server/target/"
  # the reactor's modules resolve to their target/classes; point them at the copy
  sed "s#$src/#$to/#g; s#^#$to/server/target/classes:#" "$to.runtime" > "$to/server.cp"
  sed "s#$src/#$to/#g; s#^#$to/server/target/test-classes:$to/server/target/classes:#" "$to.test" > "$to/test.cp"
  rm -f "$to.runtime" "$to.test"
}

build() { # COMMIT -> $root/COMMIT-SHA
  local sha; sha=$(git rev-parse --short "$1^{commit}")
  local to="$root/$sha"
  if [ ! -f "$to/server.cp" ]; then
    mkdir -p "$root/src-$sha" && git archive "$sha" | tar -x -C "$root/src-$sha"
    snapshot "$root/src-$sha" "$to" >&2
  fi
  echo "$to"
}

case "${1:?usage: bench/ab.sh run COMMIT ROUNDS MAINCLASS [args…] | build COMMIT}" in
  build) echo "$(build "${2:?commit}")/server.cp" ;;
  run)
    commit=${2:?commit}; rounds=${3:?rounds}; main=${4:?main class}; shift 4
    before=$(build "$commit")
    if [ -n "${AFTER:-}" ]; then after=$(build "$AFTER"); keep=1 # a commit, not the work tree
    else after="$root/tree-$(git rev-parse --short HEAD)-$$"; keep=; snapshot "$PWD" "$after"; fi
    out="$after/figures-$$.txt"; : > "$out"
    one() { # side dir args…
      local side=$1 dir=$2; shift 2
      echo "=== $side ($(basename "$dir")), load $(uptime | sed 's/.*load average: //')"
      java -Xmx4g -Dbench.server.cp=@"$dir/server.cp" -cp "$(cat "$after/test.cp")" "$main" "$@" > "$out.run"
      cat "$out.run"
      awk -v side="$side" '$1 == "figure" { print side, $2, $3 }' "$out.run" >> "$out"
    }
    for r in $(seq 1 "$rounds"); do
      if [ $((r % 2)) = 1 ]; then one before "$before" "$@"; one after "$after" "$@"
      else one after "$after" "$@"; one before "$before" "$@"; fi
    done
    echo "=== medians of $rounds paired runs: before = $commit ($(basename "$before")), after = ${AFTER:-this tree}"
    awk '{ v[$1 " " $2] = v[$1 " " $2] " " $3; names[$2] = 1 }
      function median(list,   a, n, i, j, t) {
        n = split(list, a, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      }
      END { for (n in names) { b = median(v["before " n]); a = median(v["after " n])
        printf "%-16s before %10.3f  after %10.3f  after/before %.3f  (before:%s; after:%s)\n", n, b, a, a / b,
          v["before " n], v["after " n] } }' "$out" | sort
    if [ -z "$keep" ]; then rm -rf "$after"; else rm -f "$out" "$out.run"; fi ;;
  *) echo "unknown command $1" >&2; exit 2 ;;
esac
