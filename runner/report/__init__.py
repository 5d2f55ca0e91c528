"""What a person reads of a run: summary (progress lines and summary.md), html (report.html),
html_explain (its explain section and caveats), chart (its speed chart) + short_labels (its
bars' labels), pivot (`report --by`) and
junit (`report --format junit`).

Imports: answers (explain, compare), rundir, machine and below.
"""
