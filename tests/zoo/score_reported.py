"""Score crashmatrix's answers on the held-out modes (truth_reported.yaml) from finished, resolved run directories.

    python tests/zoo/score_reported.py RUN_DIR [RUN_DIR ...] [--truth FILE] [--markdown]

Each RUN_DIR is a crashmatrix run directory after `crashmatrix resolve` (results.csv, resolution.json,
repro/*/ISSUE.md). A mode's rows are those whose axis columns equal its truth's `cell` (default
{mode: NAME}); a mode found in several runs (the hangs: with and without inject) is scored once per run.

Aspects, each `ok` or `UNTRUE` with what crashmatrix said:
  outcome    every repeat's outcome and signal are the truth's
  rank       every repeat's rank is the truth's `rank` (the rank that failed first), where the truth names one
  one_sig    one signature over the repeats
  sig_has    the signature contains `signature_has` (any one of a list; case-insensitive); "" is not scored
  distinct   no other mode's row has the same outcome + signal + signature (unless same_failure_as)
  where      every repeat's `where` is the truth's place (`*` any text; a list: any one of them)
  addressee  whom ISSUE.md addresses, read from its first lines: `torch` ("For PyTorch's tracker:"), a
             distribution ("For the maintainers of X:"), `none` (it says the stack shows no installed library's
             code, or the failure is of a known kind, or memory ran out); anything else is said as it reads

A truth whose outcome is `pass` (a program that prints noise and exits 0) is scored on outcome, one_sig, where
(empty: `where: ""`) and addressee (`none` with no ISSUE.md for it); sig_has and distinct are not scored.

Exit status 0 whatever the score (it is a measurement); 2 on bad input.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ASPECTS = ("outcome", "rank", "one_sig", "sig_has", "distinct", "where", "addressee")


def _alternatives(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _place_pattern(truth: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in truth.split("*")), re.S)


def _read_run(run_dir: str) -> dict:
    with open(os.path.join(run_dir, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(run_dir, "matrix.yaml")) as f:
        matrix = yaml.safe_load(f)
    bundles = {}
    resolution = os.path.join(run_dir, "resolution.json")
    if os.path.exists(resolution):
        with open(resolution) as f:
            for entry in json.load(f).get("repro", []):
                bundles[entry["signature"]] = os.path.join(run_dir, entry["dir"])
    return {"dir": run_dir, "name": matrix.get("name", os.path.basename(run_dir)), "rows": rows, "bundles": bundles}


ADDRESS = re.compile(r"^For the maintainers of ([^:]+):", re.M)
# "The program's to fix:" is how ISSUE.md says a library refused the program's input (added when resolve learned
# to say it, 2026-11-29; before, no ISSUE.md said it)
NOBODY = (
    "shows no installed library's code",
    # the raising frame the standard library's: no package's tracker's (2026-11-30)
    "The error was raised in Python's standard library",
    "The program's to look at first",
    "A failure of a known kind",
    "Memory ran out",
    "The program's to fix:",
    # a Hydra config error placed at the app's config file, or at the override it was started with (2026-11-30)
    "The app's configuration to fix",
    "The command's override to fix",
)


def addressee_of(issue: str) -> str:
    """Whom an ISSUE.md addresses, from its first lines (up to its first section heading after the title)."""
    head = "\n".join(issue.splitlines()[:15])
    if "For PyTorch's tracker:" in head:
        return "torch"
    found = ADDRESS.search(head)
    if found:
        return found.group(1).strip()
    if any(words in head for words in NOBODY):
        return "none"
    if "the evidence does not decide" in head:
        return "undecided"
    first = next((line.strip() for line in issue.splitlines()[1:] if line.strip()), "")
    return f"(unaddressed) {first[:120]}"


def score(runs: list, truth: dict) -> list:
    """[{mode, run, aspects: {aspect: (ok, said)}}] for every mode found in the runs."""
    entries = []
    for mode, t in truth.items():
        cell = t.get("cell") or {"mode": mode}
        for run in runs:
            rows = [r for r in run["rows"] if all(r.get(k) == str(v) for k, v in cell.items())]
            if rows:
                entries.append({"mode": mode, "run": run, "rows": rows, "truth": t})
    many = {e["mode"] for e in entries if sum(x["mode"] == e["mode"] for x in entries) > 1}
    for e in entries:
        e["label"] = f"{e['mode']}@{e['run']['name']}" if e["mode"] in many else e["mode"]
        e["ids"] = {(r["outcome"], r["signal"], r["signature"]) for r in e["rows"]}
    for e in entries:
        t, rows = e["truth"], e["rows"]
        a = {}
        want = (t["outcome"], t.get("signal", "") or "")
        said = sorted({(r["outcome"], r["signal"]) for r in rows})
        a["outcome"] = (said == [want], " / ".join(f"{o} {s}".strip() for o, s in said) + f" ({len(rows)} rows)")
        if t.get("rank") is not None:
            said_ranks = sorted({r.get("rank", "") for r in rows})
            ranks = str(t["rank"]).split("|")  # `0|1`: either (the ranks failed at once)
            a["rank"] = (all(r in ranks for r in said_ranks), " / ".join(r or "(none)" for r in said_ranks))
        else:
            a["rank"] = (None, "not scored: no rank in the truth")
        sigs = sorted({r["signature"] for r in rows})
        a["one_sig"] = (len(sigs) == 1, " | ".join(sigs))
        has = [h for h in _alternatives(t.get("signature_has")) if h]
        if has:
            ok = all(any(h.lower() in s.lower() for h in has) for s in sigs)
            a["sig_has"] = (ok, " | ".join(sigs))
        else:
            a["sig_has"] = (None, "not scored")
        passing = t["outcome"] == "pass"
        same = set(t.get("same_failure_as") or ())
        alike = sorted(
            {x["label"] for x in entries if x["mode"] != e["mode"] and x["mode"] not in same and e["ids"] & x["ids"]}
        )
        if passing:
            # two passing modes share (pass, "", ""): nothing to tell apart (truth_heldout16.yaml's pass truths)
            a["distinct"] = (None, "not scored: a pass")
        else:
            a["distinct"] = (not alike, "same as " + ", ".join(alike) if alike else "")
        places = _alternatives(t["where"]) or [""]
        got = sorted({r["where"] for r in rows})
        ok = all(any(_place_pattern(p).fullmatch(w) for p in places) for w in got)
        a["where"] = (ok, " | ".join(got))
        issue_said = None
        for sig in sigs:
            bundle = e["run"]["bundles"].get(sig)
            if bundle and os.path.exists(os.path.join(bundle, "ISSUE.md")):
                with open(os.path.join(bundle, "ISSUE.md")) as f:
                    issue_said = addressee_of(f.read())
                break
        if issue_said is None and passing:
            # a pass files no bug report: no ISSUE.md is the true answer when the truth addresses nobody
            a["addressee"] = (str(t["addressee"]) == "none", "no ISSUE.md (a pass)")
        elif issue_said is None:
            a["addressee"] = (False, "no ISSUE.md for its signature")
        else:
            a["addressee"] = (issue_said == str(t["addressee"]), issue_said)
        e["aspects"] = a
    return entries


def _cell(ok, said: str, markdown: bool) -> str:
    if ok is None:
        return "n/a"
    if ok:
        return "ok"
    said = said.replace("|", "/") if markdown else said
    return f"UNTRUE: {said}"


def report(entries: list, markdown: bool) -> str:
    out = []
    if markdown:
        out.append("| mode | " + " | ".join(ASPECTS) + " |")
        out.append("|---" * (len(ASPECTS) + 1) + "|")
        for e in entries:
            cells = [_cell(*e["aspects"][k], markdown=True) for k in ASPECTS]
            out.append(f"| {e['label']} | " + " | ".join(cells) + " |")
    else:
        width = max(len(e["label"]) for e in entries)
        out.append(f"{'mode':<{width}}  " + "  ".join(f"{k:<9}" for k in ASPECTS))
        for e in entries:
            marks = ["n/a" if e["aspects"][k][0] is None else "ok" if e["aspects"][k][0] else "UNTRUE" for k in ASPECTS]
            out.append(f"{e['label']:<{width}}  " + "  ".join(f"{m:<9}" for m in marks))
        out.append("")
        out.append("untrue answers, what was said against the truth:")
        for e in entries:
            for k in ASPECTS:
                ok, said = e["aspects"][k]
                if ok is False:
                    out.append(f"  {e['label']}  {k}: said {said!r}; truth {_truth_of(e['truth'], k)!r}")
    per = {k: sum(e["aspects"][k][0] is False for e in entries) for k in ASPECTS}
    total = sum(per.values())
    bad_entries = sum(any(e["aspects"][k][0] is False for k in ASPECTS) for e in entries)
    bad_modes = len({e["mode"] for e in entries if any(e["aspects"][k][0] is False for k in ASPECTS)})
    modes = len({e["mode"] for e in entries})
    answers = sum(e["aspects"][k][0] is not None for e in entries for k in ASPECTS)
    out.append("")
    out.append(f"modes: {modes} ({len(entries)} scored entries: a hang counts once per run); answers scored: {answers}")
    out.append(f"untrue answers: {total} (" + ", ".join(f"{k} {v}" for k, v in per.items()) + ")")
    out.append(
        f"entries with at least one untrue answer: {bad_entries} of {len(entries)}; modes: {bad_modes} of {modes}"
    )
    return "\n".join(out)


def _truth_of(t: dict, aspect: str):
    return {
        "outcome": f"{t['outcome']} {t.get('signal', '')}".strip(),
        "rank": t.get("rank"),
        "one_sig": "one signature",
        "sig_has": t.get("signature_has"),
        "distinct": "distinct from every other mode",
        "where": t.get("where"),
        "addressee": t.get("addressee"),
    }[aspect]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="crashmatrix run directories, resolved")
    parser.add_argument("--truth", default=os.path.join(HERE, "truth_reported.yaml"))
    parser.add_argument("--markdown", action="store_true", help="the table as Markdown (for REPORTED.md)")
    parser.add_argument("--json", action="store_true", help="every answer as JSON")
    args = parser.parse_args(argv)
    try:
        with open(args.truth) as f:
            truth = yaml.safe_load(f)
        runs = [_read_run(d) for d in args.runs]
    except (OSError, yaml.YAMLError, KeyError) as e:
        print(f"score_reported: {e}", file=sys.stderr)
        return 2
    entries = score(runs, truth)
    missing = sorted(set(truth) - {e["mode"] for e in entries})
    if args.json:
        print(
            json.dumps(
                [
                    {"mode": e["label"], **{k: {"ok": v[0], "said": v[1]} for k, v in e["aspects"].items()}}
                    for e in entries
                ],
                indent=1,
            )
        )
    else:
        print(report(entries, args.markdown))
    if missing:
        print(f"not found in any run: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
