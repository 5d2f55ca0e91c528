"""A traceback rich printed in its box (`rich.traceback.install()`, common in training code), told as Python
prints it, so that the same rules read it: its exception, its frames, its chain. Pure: text in, text out.

rich (15.0 measured, stderr not a terminal, 80 columns) prints, for each exception of a chain:

    ╭───────────────────── Traceback (most recent call last) ──────────────────────╮
    │ /app/train.py:13 in main                                                     │
    │                                                                              │
    │   12 def main():                                                             │
    │ ❱ 13 │   labels = load_labels("{'cat': 1}")                                  │
    ╰──────────────────────────────────────────────────────────────────────────────╯
    JSONDecodeError: Expecting property name enclosed in double quotes: line 1
    column 2 (char 1)

a frame's head folded where the box is too narrow for it (a long path split anywhere, `... in` then the function
on the next line), the exception's type without its module, its message folded at the box's width; between two
exceptions Python's own words (`The above exception was the direct cause of the following exception:`).
"""

from __future__ import annotations

import re

_BOX_HEAD = re.compile(r"^╭─+ Traceback \(most recent call last\) ─+╮$")
_BOX_END = re.compile(r"^╰─+╯$")
_FRAME_HEAD = re.compile(r"^(?P<path>\S.*?):(?P<line>\d+) in (?P<func>\S+)$")
_MARKED = re.compile(r"^❱\s*\d+\s(?P<code>.*)$")  # the frame's own line, after its number
_GUIDES = re.compile(r"^[│\s]*")  # rich's indent guides before the code


def unrich(text: str) -> str:
    """text with each of rich's boxed tracebacks told as Python prints one; the rest as it is."""
    if "Traceback (most recent call last) ─" not in text:
        return text
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        if not _BOX_HEAD.match(lines[i].strip()):
            out.append(lines[i])
            i += 1
            continue
        width = len(lines[i].strip())
        body, i = [], i + 1
        while i < len(lines) and not _BOX_END.match(lines[i].strip()):
            inner = lines[i].strip()
            body.append(inner[1:-1].strip() if inner.startswith("│") and inner.endswith("│") else inner)
            i += 1
        i = _past_code_box(lines, i + 1)  # a SyntaxError's code and its caret, in a box of their own
        said, i = _exception(lines, i, width)
        out += ["Traceback (most recent call last):", *_frames(body), *said]
    return "\n".join(out)


def _past_code_box(lines: list[str], i: int) -> int:
    """Past the untitled box rich prints after a SyntaxError's traceback (the offending line, a `▲` under it)."""
    if i < len(lines) and lines[i].strip().startswith("╭") and not _BOX_HEAD.match(lines[i].strip()):
        while i < len(lines) and not _BOX_END.match(lines[i].strip()):
            i += 1
        return i + 1
    return i


def _frames(body: list[str]) -> list[str]:
    """Python's two lines a frame from the box's lines: `  File "PATH", line N, in FUNC` and its marked code."""
    told, head = [], ""
    for line in body:
        if not line:
            continue
        marked = _MARKED.match(line)
        if marked:
            told.append(f"    {_GUIDES.sub('', marked['code']).strip()}")
            continue
        if line[0].isdigit() or line.startswith(("...", "[", "╭", "│", "╰")):
            continue  # another line of code, rich's `... 3 frames hidden ...`, a frame's locals in their own box
        head = f"{head} {line}" if head.endswith(" in") else head + line  # a path is folded anywhere
        frame = _FRAME_HEAD.match(head)
        if frame:
            told.append(f'  File "{frame["path"]}", line {frame["line"]}, in {frame["func"]}')
            head = ""
    return told


def _exception(lines: list[str], i: int, width: int) -> tuple[list[str], int]:
    """The exception's line after a box, its message folded at the box's width joined again; and where the text
    goes on. A line is rich's fold of the one before only where that one had no room for its first word (a word
    longer than the width is cut at it): what the program printed next is its own line."""
    said, before = "", ""  # the message so far; the line before, as printed
    while i < len(lines) and lines[i].strip() and "Traceback (most recent call last)" not in lines[i]:
        line = lines[i].rstrip()
        if before:
            if len(before) >= width:
                said += line  # a word cut at the width
            elif len(before) + 1 + len(line.split(" ", 1)[0]) > width:
                said += f" {line}"
            else:
                break
        else:
            said = line.strip()
        before = line
        i += 1
    return ([said] if said else []), i
