"""What some machines share and no other machine has, from their fingerprints (env.json).

Where failures follow machines (a fleet's nodes, or the runs that `compare A B C` sets apart), the
fields worth naming are those that go with the difference: a value every odd machine has and no other
machine has. A field on which the odd machines disagree among themselves, or which they share with a
machine that behaves otherwise, explains nothing, so it is left out even where it differs; the host's
name is the machine's name, never a cause. Fields: the summary's (kernel, driver, GPU, /dev/shm, ...),
the training-relevant environment variables, and the packages of the first interpreter the cells used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from crashmatrix.machine.fingerprint import SUMMARY_FIELDS

# Names a machine rather than describing it.
_NOT_A_CAUSE = ("host",)
_ABSENT = "not installed"


@dataclass(frozen=True)
class Apart:
    """One field on which the odd machines agree and every other machine has another value."""

    field: str  # "packages fleetlib", "kernel", "env.NCCL_P2P_DISABLE"
    value: str  # the odd machines' value
    others: tuple[str, ...]  # the other machines' values, each once

    def text(self) -> str:
        return f"{self.field} {self.value} (others {', '.join(self.others)})"

    def to_json(self) -> dict:
        return {"field": self.field, "value": self.value, "others": list(self.others)}


def _shown(value) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def fields(facts: Mapping) -> dict[str, str]:
    """A fingerprint's comparable fields, flat: summary fields, env.X, `packages NAME` (the first interpreter's)."""
    out = {key: _shown(facts.get(key)) for key in SUMMARY_FIELDS if key not in _NOT_A_CAUSE and key in facts}
    out.update({f"env.{k}": _shown(v) for k, v in (facts.get("env") or {}).items()})
    interpreters = facts.get("interpreters") or {}
    found: Mapping = interpreters.get(facts.get("interpreter")) or next(iter(interpreters.values()), {})
    packages = found.get("packages")
    if isinstance(packages, dict):
        out.update({f"packages {name}": str(version) for name, version in packages.items()})
        out["packages"] = "listed"  # marks that packages were asked: a missing one is then not installed
    return out


def set_apart(odd: Sequence[Mapping], others: Sequence[Mapping]) -> list[Apart]:
    """The fields every odd fingerprint shares and no other has; [] where a side has no fingerprint."""
    odd_fields = [fields(f) for f in odd if f]
    other_fields = [fields(f) for f in others if f]
    if not odd_fields or not other_fields or len(odd_fields) < len(odd) or len(other_fields) < len(others):
        return []
    everyone = odd_fields + other_fields
    names = list(dict.fromkeys(k for f in everyone for k in f if k != "packages"))
    found = []
    for name in names:
        values = {_value(f, name) for f in odd_fields}
        theirs = [_value(f, name) for f in other_fields]
        value = values.pop()
        if values or value is None or value in theirs:
            continue  # not shared by every odd machine, not known, or another machine has it too
        known = [v for v in theirs if v is not None]
        if len(known) < len(theirs):
            continue
        found.append(Apart(name, value, tuple(dict.fromkeys(known))))
    return found


def _value(facts: dict[str, str], name: str) -> str | None:
    """The field's value; a package another fingerprint lists is `not installed` here; None: not known."""
    if name in facts:
        return facts[name]
    if name.startswith("packages ") and "packages" in facts:
        return _ABSENT
    return None


def _odd_and_rest(conditions: Sequence[tuple[str, str]], nodes: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the nodes a conjunction names, the run's other nodes)."""
    odd = [v for a, v in conditions if a == "node"]
    return odd, [n for n in nodes if n not in odd]


def node_apart(
    conditions: Sequence[tuple[str, str]], fingerprints: Mapping[str, Mapping], nodes: Sequence[str]
) -> list[Apart] | None:
    """For explain's conjunction naming a node: what that node has and no other node of the run has; None
    where the conjunction names no node, or every node."""
    odd, rest = _odd_and_rest(conditions, nodes)
    if not odd or not rest:
        return None
    return set_apart([fingerprints.get(n) or {} for n in odd], [fingerprints.get(n) or {} for n in rest])


def node_sentence(
    conditions: Sequence[tuple[str, str]], fingerprints: Mapping[str, Mapping], nodes: Sequence[str]
) -> str:
    """node_apart said: `n2 differs from the passing node n1 in: ...`; "" where it has nothing to say."""
    apart = node_apart(conditions, fingerprints, nodes)
    if apart is None:
        return ""
    odd, rest = _odd_and_rest(conditions, nodes)
    return sentence(odd, apart, "every passing node" if len(rest) > 1 else f"the passing node {rest[0]}")


def sentence(odd_names: Sequence[str], apart: Sequence[Apart], others: str = "every passing node") -> str:
    """`n2 differs from every passing node in: packages fleetlib 0.0.1 (others 0.9.0)`."""
    who = ", ".join(odd_names)
    if not apart:
        return f"{who}: no field of the fingerprint (env.json) sets {'it' if len(odd_names) == 1 else 'them'} apart from {others}"
    verb = "differs" if len(odd_names) == 1 else "differ"
    return f"{who} {verb} from {others} in: " + "; ".join(a.text() for a in apart)
