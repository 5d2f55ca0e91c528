"""How many runs `crashmatrix hunt` needs from nothing but a matrix, and how often it names the whole cause.

    python bench/bench_hunt.py [--trials 20] [--seed 0] [--real 3]

A simulated program (no processes) fails with a planted conjunction: issue 16's case
first, 3 values on 7 axes, a crash when a 3-way conjunction holds, placed at random
per trial, deterministic and then at p = 0.5 (the rate unknown to hunt). Then two
overlapping faults (a 3-way crash masking a 2-way exception that shares an axis value),
a 2-way fault in 3^4, a 4-way fault in 2^10 (--order 4), and 1% background noise
beside the deterministic 3-way fault.

Two counts per hunt: `answer`, the runs after which every planted cause was named (what
the user reads, printed as it happens), and `runs`, the whole hunt (until every other
conjunction of up to `order` values ran clean). Exact: the named causes are the planted
ones, every value and no other. F: the F-measure of the named axis values. First failure:
the run that first failed (before it, hunt can only cover).

With --real N, also N hunts per case through real processes (`crashmatrix hunt --jobs 2` on a
planted program that SIGSEGVs itself, an exception beside it for the overlapping case), runs and wall
time per hunt.

Exit 1 when the deterministic whole-hunt median exceeds FIC_BS's 59 runs for this case (a
covering array, 46, then 13 localization runs; Zhang & Zhang, ISSTA 2011), or when the 3-way
case misses one of issue 16's targets for the answer: deterministic mean <= 25, p90 <= 40,
every hunt exact; p = 0.5 mean <= 70, p90 <= 120, >= 95% of hunts exact; of the causes named
at 0.95, >= 95% right. `--quick --trials 200` measures those two cases alone.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from crashmatrix.hunt.model import Evidence, Run, Space
from crashmatrix.hunt.search import hunt
from crashmatrix.outcome import FailureKind

SEGV = FailureKind("crash", "SIGSEGV", "killed_by_signal")
RAISES = FailureKind("fail", "", "ValueError: bad batch")
NOISE = FailureKind("crash", "SIGABRT", "killed_by_signal")
FIC_BS = 59


def plant(rng, n_axes, n_values, size, avoid_axes=()):
    axes = rng.sample([i for i in range(n_axes) if i not in avoid_axes], size)
    return tuple(sorted((i, str(rng.randrange(n_values))) for i in axes))


def holds(cell, cond):
    return all(cell[i] == v for i, v in cond)


def one_hunt(space, faults, seed, p=1.0, noise=0.0, max_runs=300, jobs=1):
    """faults: [(kind, cond)] in masking order (the first that fires is seen).

    -> (runs, answer, causes, state, the run that first failed)."""
    rng = random.Random(seed * 7919 + 17)

    def program(cell):
        for kind, cond in faults:
            if holds(cell, cond) and (p >= 1 or rng.random() < p):
                return kind
        return NOISE if noise and rng.random() < noise else None

    evidence = Evidence(space)
    wanted = set(faults)
    answer = []

    def watch(state):
        if not answer and wanted <= {(c.kind, c.conditions) for c in state.causes}:
            answer.append(len(evidence.runs))

    state = hunt(
        evidence,
        lambda cells: [Run(c, program(c)) for c in cells],
        confidence=0.95,
        jobs=jobs,
        max_runs=max_runs,
        seed=seed,
        on_state=watch,
    )
    causes = {(c.kind, c.conditions) for c in state.causes if c.conditions is not None and c.kind != NOISE}
    first = next((k for k, run in enumerate(evidence.runs, 1) if run.kind is not None), None)
    return len(evidence.runs), (answer[0] if answer else None), causes, state, first


def f_measure(named, planted):
    got = {(k, pair) for k, cond in named for pair in cond}
    want = {(k, pair) for k, cond in planted for pair in cond}
    if not got or not want:
        return 0.0
    hit = len(got & want)
    return 0.0 if hit == 0 else 2 * hit / (len(got) + len(want))


def scenario(name, trials, seed, make, **kw):
    runs, answers, firsts, exact, fs, calibration = [], [], [], 0, [], [0, 0]
    t0 = time.time()
    for t in range(trials):
        rng = random.Random(seed * 1_000_003 + t)
        space, faults = make(rng)
        n, answer, causes, state, first = one_hunt(space, faults, seed * 1000 + t, **kw)
        runs.append(n)
        firsts.append(first if first is not None else n)
        answers.append(answer if answer is not None else n)
        exact += causes == set(faults)
        fs.append(f_measure(causes, faults))
        for c in state.causes:
            if c.conditions is not None and c.confidence >= 0.95:
                calibration[0] += 1
                calibration[1] += (c.kind, c.conditions) in set(faults)
    row = {
        "name": name,
        "mean": statistics.mean(runs),
        "median": statistics.median(runs),
        "p90": sorted(runs)[int(0.9 * (len(runs) - 1))],
        "max": max(runs),
        "first_mean": statistics.mean(firsts),
        "answer_mean": statistics.mean(answers),
        "answer_p90": sorted(answers)[int(0.9 * (len(answers) - 1))],
        "exact": exact,
        "trials": trials,
        "f": statistics.mean(fs),
        "right_at_95": f"{calibration[1]}/{calibration[0]}",
        "right_share": calibration[1] / calibration[0] if calibration[0] else 1.0,
        "seconds": time.time() - t0,
    }
    print(
        f"{name:<34} runs mean {row['mean']:5.1f} median {row['median']:5.1f} p90 {row['p90']:4d} max {row['max']:4d}"
        f" | first failure {row['first_mean']:5.1f} | answer mean {row['answer_mean']:5.1f} p90 {row['answer_p90']:4d}"
        f" | exact {exact}/{trials} F {row['f']:.3f} right@0.95 {row['right_at_95']} ({row['seconds']:.0f}s)",
        flush=True,
    )
    return row


def triple_3_7(rng):
    return Space([f"x{i}" for i in range(7)], [["0", "1", "2"]] * 7, 3), [(SEGV, plant(rng, 7, 3, 3))]


def overlapping(rng):
    crash = plant(rng, 7, 3, 3)
    shared = crash[0]
    other = plant(rng, 7, 3, 1, avoid_axes=[i for i, _ in crash])
    return triple_3_7(rng)[0], [(SEGV, crash), (RAISES, tuple(sorted((shared,) + other)))]


def pair_3_4(rng):
    return Space([f"x{i}" for i in range(4)], [["0", "1", "2"]] * 4, 3), [(SEGV, plant(rng, 4, 3, 2))]


def four_2_10(rng):
    return Space([f"x{i}" for i in range(10)], [["0", "1"]] * 10, 4), [(SEGV, plant(rng, 10, 2, 4))]


PLANTED = """\
import os, random, signal, sys
args = dict(a.split("=", 1) for a in sys.argv[1:])
def holds(spec):
    return all(args[k] == v for k, v in (kv.split("=") for kv in spec.split(",")))
if holds(os.environ["CRASH_WHEN"]) and random.random() < float(os.environ["CRASH_RATE"]):
    os.kill(os.getpid(), signal.SIGSEGV)
if os.environ.get("RAISE_WHEN") and holds(os.environ["RAISE_WHEN"]):
    raise ValueError("bad batch")
"""


def real_hunts(trials: int, seed: int) -> None:
    """`crashmatrix hunt --jobs 2` on a planted program: runs, the answer's run and wall time per hunt."""
    import json
    import os
    import subprocess
    import tempfile

    work = tempfile.mkdtemp(prefix="bench-hunt-")
    with open(os.path.join(work, "planted.py"), "w") as f:
        f.write(PLANTED)
    axes = ", ".join(f"x{i}: [0, 1, 2]" for i in range(7))
    with open(os.path.join(work, "m.yaml"), "w") as f:
        f.write(f"name: planted\ncommand: [python, planted.py]\naxes: {{{axes}}}\ntimeout: 60\n")
    spell = lambda cond: ",".join(f"x{i}={v}" for i, v in cond)  # noqa: E731
    for name, rate, overlap in (("deterministic", 1.0, False), ("p = 0.5", 0.5, False), ("overlap", 1.0, True)):
        for t in range(trials):
            rng = random.Random(seed * 1_000_003 + t)
            space, faults = overlapping(rng) if overlap else triple_3_7(rng)
            env = dict(os.environ, CRASH_WHEN=spell(faults[0][1]), CRASH_RATE=str(rate))
            if overlap:
                env["RAISE_WHEN"] = spell(faults[1][1])
            out = os.path.join(work, f"h-{name[0]}-{t}")
            start = time.time()
            proc = subprocess.run(
                [sys.executable, "-m", "crashmatrix", "hunt", "m.yaml", "--jobs", "2", "--out", out],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
            )
            wall = time.time() - start
            data = json.load(open(os.path.join(out, "hunt.json")))
            named = {tuple(sorted(c["conditions"].items())) for c in data["causes"]}
            want = {tuple((f"x{i}", v) for i, v in cond) for _k, cond in faults}
            found = [line.split()[2] for line in proc.stdout.splitlines() if line.startswith("found after")]
            print(
                f"real {name:<14} trial {t}: {data['runs']:3d} runs, answer after {'/'.join(found) or '-'},"
                f" {'exact' if named == want else 'WRONG ' + str(named)}, {wall:.1f}s wall",
                flush=True,
            )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="only issue 16's case, deterministic and p = 0.5")
    parser.add_argument("--real", type=int, default=0, metavar="N", help="also N hunts per case through processes")
    args = parser.parse_args(argv)
    if args.real:
        real_hunts(args.real, args.seed)
    det = scenario("3-way in 3^7, deterministic", args.trials, args.seed, triple_3_7)
    flaky = scenario("3-way in 3^7, p = 0.5", args.trials, args.seed, triple_3_7, p=0.5)
    if not args.quick:
        scenario("crash masking an exception, 3^7", args.trials, args.seed, overlapping)
        scenario("2-way in 3^4", args.trials, args.seed, pair_3_4)
        scenario("4-way in 2^10, --order 4", max(5, args.trials // 4), args.seed, four_2_10)
        scenario("3-way in 3^7, 1% background noise", args.trials, args.seed, triple_3_7, noise=0.01)
        scenario("3-way in 3^7, p = 0.3", args.trials, args.seed, triple_3_7, p=0.3)
        scenario("3-way in 3^7, deterministic, --jobs 2", args.trials, args.seed, triple_3_7, jobs=2)
        scenario("3-way in 3^7, p = 0.5, --jobs 2", args.trials, args.seed, triple_3_7, p=0.5, jobs=2)
    print(
        "\nanchors for 3-way in 3^7: FIC_BS ~46+13 = 59 runs; ICT 65.6-89 tests (12-13 parameters);"
        " floors ~20 (deterministic), ~46 (p = 0.5); pairwise + explain + bisect today: 44 runs, 2 of 3 conditions"
    )
    missed = [f"deterministic whole-hunt median {det['median']} > {FIC_BS} (FIC_BS)"] if det["median"] > FIC_BS else []
    missed += _missed_targets(det, TARGETS["deterministic"]) + _missed_targets(flaky, TARGETS["p = 0.5"])
    for goal in missed:
        print(f"GOAL MISSED: {goal}")
    if not missed:
        print(
            f"goals met: issue 16's answer targets for 3-way in 3^7; deterministic median {det['median']} <= {FIC_BS}"
        )
    return 1 if missed else 0


# Issue 16's targets for 3-way in 3^7, read against the answer (the runs until every planted cause
# was named): answer mean, answer p90, share of hunts exact, share of causes named at 0.95 that are right.
TARGETS = {"deterministic": (25, 40, 1.0, 0.95), "p = 0.5": (70, 120, 0.95, 0.95)}


def _missed_targets(row: dict, target: tuple) -> list[str]:
    mean, p90, exact, right = target
    checks = (
        (row["answer_mean"] <= mean, f"answer mean {row['answer_mean']:.1f} > {mean}"),
        (row["answer_p90"] <= p90, f"answer p90 {row['answer_p90']} > {p90}"),
        (row["exact"] >= exact * row["trials"], f"exact {row['exact']}/{row['trials']} < {exact:.0%}"),
        (row["right_share"] >= right, f"right at 0.95 {row['right_at_95']} < {right:.0%}"),
    )
    return [f"{row['name']}: {text}" for ok, text in checks if not ok]


if __name__ == "__main__":
    sys.exit(main())
