#!/usr/bin/env python3
"""Measurement quality of the agent on this machine (not part of the test run).

For every benchmark of the suite, in each round and back to back so that the machine's load hits all
three alike:
  1. the agent (java -jar ... run --dry-run --benchmarks NAME): its samples' coefficient of variation (CV),
  2. the same compiled program run by hand, same scale and sample count: the agent's overhead is the
     difference of the medians,
  3. hyperfine timing the same program invocation the same number of times: its CV of wall time.
Finally the wall time of the whole suite at scale 0.2.

Usage: python3 agent/bench/measure.py [--scale 1.0] [--repetitions 5] [--rounds 2] [--only write-64b,fork]
       (after `mvn -B -pl agent -am package -DskipTests`; needs gcc, python3 and hyperfine)
"""
import argparse, json, os, re, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = os.path.join(HERE, "..", "target", "perftrack-agent.jar")
SUITE = os.path.join(HERE, "..", "src", "main", "resources", "suite", "posix")

# benchmark -> (program, extra args): the same table as org.perftrack.agent.suite.Suite
PROGRAMS = {"null-call": ("null_call", []), "write-64b": ("write_64b", []), "read-64b": ("read_64b", []),
            "sigprocmask": ("sigprocmask", []), "signal-catch": ("signal_catch", []),
            "shell-builtins": ("shell", ["builtins.sh", "us"]), "shell-test": ("shell", ["test.sh", "us"]),
            "spawn": ("spawn", []), "configure": ("shell", ["configure.sh", "s"]), "fork": ("fork", []),
            "pipe-latency": ("pipe_latency", []), "lstat-dir": ("lstat_dir", []), "readdir": ("readdir", []),
            "file-create": ("file_create", []), "tcp-latency": ("tcp_latency", [])}
for size in (512, 1024, 2048, 4096, 8192, 65536, 131072):
    PROGRAMS["pipe-bw/%d" % size] = ("pipe_bw", [str(size)])


def cv(values):
    return statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else 0.0


def agent_run(scale, reps, names, work):
    cmd = ["java", "-jar", JAR, "run", "--product", "bench", "--dry-run", "--scale", str(scale),
           "--repetitions", str(reps), "--work-dir", work]
    if names:
        cmd += ["--benchmarks", ",".join(names)]
    start = time.time()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.time() - start
    run = json.loads(out)[0]
    values = {r["benchmark"]: r["samples"] for r in run["results"] if r["metric"] in ("time-per-op", "bandwidth")}
    return values, wall, run["failures"]


def by_hand(build, program, args, scale, reps):
    exe = os.path.join(build, program)
    calib = subprocess.run([exe, "calibrate", str(scale)] + args, cwd=build, check=True, capture_output=True, text=True)
    iters = re.search(r"iters=(\d+)", calib.stdout).group(1)
    values = []
    for _ in range(reps):
        out = subprocess.run([exe, "sample", iters] + args, cwd=build, check=True, capture_output=True, text=True).stdout
        values.append(float(re.search(r"value=(\S+)", out).group(1)))
    return values, iters


def hyperfine(build, program, args, iters, reps):
    export = os.path.join(build, "hf.json")
    cmd = " ".join([os.path.join(build, program), "sample", iters] + args)
    subprocess.run(["hyperfine", "-N", "--runs", str(reps), "--warmup", "1", "--export-json", export, cmd],
                   cwd=build, check=True, capture_output=True)
    with open(export) as f:
        return json.load(f)["results"][0]["times"]


def measure(name, a, build, work):
    """Per round: (agent samples, by-hand samples, hyperfine wall times), back to back."""
    program, args = PROGRAMS[name]
    rounds = []
    for _ in range(a.rounds):
        values, _, failures = agent_run(a.scale, a.repetitions, [name], work)
        if name not in values:
            raise SystemExit("%s failed in the agent: %s" % (name, failures))
        hand, iters = by_hand(build, program, args, a.scale, a.repetitions)
        rounds.append((values[name], hand, hyperfine(build, program, args, iters, a.repetitions)))
    return rounds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--only", default="")
    a = p.parse_args()
    names = [n for n in a.only.split(",") if n] or list(PROGRAMS)
    tmp = tempfile.mkdtemp(prefix="perftrack-bench-")
    build = os.path.join(tmp, "hand")
    shutil.copytree(SUITE, build)
    for prog in sorted({PROGRAMS[n][0] for n in names}):
        subprocess.run(["gcc", "-O2", "-o", prog, prog + ".c"], cwd=build, check=True)

    print("scale %.2f, %d samples, %d rounds; CV = median over rounds of the CV of one round's samples" % (
        a.scale, a.repetitions, a.rounds))
    print("%-15s %11s %9s | %11s %9s %9s | %8s" % ("benchmark", "agent med", "agent cv", "hand med", "hand cv",
                                                "overhead", "hf cv"))
    overheads, better = [], 0
    for name in names:
        rounds = measure(name, a, build, os.path.join(tmp, "work"))
        am = statistics.median([x for r in rounds for x in r[0]])
        hm = statistics.median([x for r in rounds for x in r[1]])
        # for bandwidth a lower agent figure is the overhead; for times a higher one
        over = (hm / am - 1) if name.startswith("pipe-bw/") else (am / hm - 1)
        overheads.append(over)
        acv, hcv, fcv = (statistics.median(cv(r[i]) for r in rounds) for i in range(3))
        better += acv <= fcv
        print("%-15s %11.4g %8.2f%% | %11.4g %8.2f%% %8.2f%% | %7.2f%%" % (
            name, am, 100 * acv, hm, 100 * hcv, 100 * over, 100 * fcv), flush=True)
    print("overhead: median %.2f%%, median |overhead| %.2f%%; agent CV <= hyperfine CV for %d of %d" % (
        100 * statistics.median(overheads), 100 * statistics.median(abs(o) for o in overheads), better, len(names)))
    if not a.only:
        _, wall02, failures = agent_run(0.2, a.repetitions, [], os.path.join(tmp, "work02"))
        print("whole suite at scale 0.2, %d repetitions: %.1f s (failures: %s)" % (a.repetitions, wall02,
                                                                                 failures or "none"))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
