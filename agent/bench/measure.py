#!/usr/bin/env python3
"""Measurement quality of the agent on this machine (not part of the test run).

For every benchmark of the suite at the given scale:
  - the agent's coefficient of variation (CV) over its samples (java -jar ... run --dry-run),
  - the agent's overhead: its median against the same compiled program run by hand, same sample count,
  - hyperfine timing the same program invocation the same number of times (its CV of wall time).
And the wall time of the whole suite at scale 0.2.

Usage: python3 agent/bench/measure.py [--scale 1.0] [--repetitions 5] [--only write-64b,fork]
       (after `mvn -B -pl agent -am package -DskipTests`; needs gcc and hyperfine)
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


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--only", default="")
    p.add_argument("--rounds", type=int, default=3,
                   help="agent and by-hand passes alternate this many times, so machine drift hits both alike")
    a = p.parse_args()
    names = [n for n in a.only.split(",") if n] or list(PROGRAMS)
    tmp = tempfile.mkdtemp(prefix="perftrack-bench-")
    build = os.path.join(tmp, "hand")
    shutil.copytree(SUITE, build)
    for prog in sorted({PROGRAMS[n][0] for n in names}):
        subprocess.run(["gcc", "-O2", "-o", prog, prog + ".c"], cwd=build, check=True)

    agent, hand, iters, walls = {}, {}, {}, []
    for r in range(a.rounds):
        values, wall, failures = agent_run(a.scale, a.repetitions, names if a.only else [], os.path.join(tmp, "work"))
        walls.append(wall)
        for name, v in values.items():
            agent.setdefault(name, []).append(v)
        for name in names:
            program, args = PROGRAMS[name]
            v, iters[name] = by_hand(build, program, args, a.scale, a.repetitions)
            hand.setdefault(name, []).append(v)
        print("round %d: agent pass %.1f s, failures: %s" % (r + 1, wall, failures or "none"), flush=True)
    print("%-15s %12s %9s | %12s %9s %9s | %9s" % ("benchmark", "agent med", "agent cv", "hand med", "hand cv",
                                                "overhead", "hf cv"))
    overheads = []
    for name in names:
        if name not in agent:
            print("%-15s (no agent samples)" % name)
            continue
        program, args = PROGRAMS[name]
        hf = hyperfine(build, program, args, iters[name], a.repetitions)
        pooled_agent = [x for run in agent[name] for x in run]
        pooled_hand = [x for run in hand[name] for x in run]
        am, hm = statistics.median(pooled_agent), statistics.median(pooled_hand)
        # for bandwidth a lower agent figure is the overhead; for times a higher one
        over = (hm / am - 1) if name.startswith("pipe-bw/") else (am / hm - 1)
        overheads.append(over)
        # spread: the CV of one session's 5 samples (median over rounds), as a user sees it
        acv = statistics.median(cv(run) for run in agent[name])
        hcv = statistics.median(cv(run) for run in hand[name])
        print("%-15s %12.4g %8.2f%% | %12.4g %8.2f%% %8.2f%% | %8.2f%%" % (
            name, am, 100 * acv, hm, 100 * hcv, 100 * over, 100 * cv(hf)), flush=True)
    if overheads:
        print("overhead over benchmarks: median %.2f%%, mean |overhead| %.2f%%" % (
            100 * statistics.median(overheads), 100 * statistics.mean(abs(o) for o in overheads)))
    if not a.only:
        _, wall02, _ = agent_run(0.2, a.repetitions, [], os.path.join(tmp, "work02"))
        print("whole suite at scale 0.2, %d repetitions: %.1f s" % (a.repetitions, wall02))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
