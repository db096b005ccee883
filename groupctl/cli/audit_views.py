"""How an audit report is shown, and when it fails the command: `dump audit` and `spark audit` alike.

Both commands must print the same report for the same input (the Spark tests compare them byte for
byte), so the findings table, the summaries, the JSON item and the --fail-on rule live here once.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

import typer

from groupctl.errors import FindingsReached
from groupctl.output import Column, OutputFormat, render, to_item, write_csv, write_prose, write_table
from groupctl.plurals import counted

if TYPE_CHECKING:
    from groupctl.log.audit import AuditReport


class FailOn(str, Enum):
    """The lowest finding severity that makes an audit exit 4."""

    error = "error"
    warning = "warning"
    info = "info"
    none = "none"


FailOnOption = typer.Option(
    FailOn.error, "--fail-on", case_sensitive=False,
    help="Exit 4 when a finding at or above this severity is found (none: never). Damaged input exits 3 "
    "instead, whatever this says.",
)

FINDING_COLUMNS = [
    Column("severity", "SEVERITY"),
    Column("rule", "RULE"),
    Column("group", "GROUP"),
    Column("evidence", "EVIDENCE", wide_only=True),
    Column("explanation", "EXPLANATION", free=True),
]
GROUP_SUMMARY_COLUMNS = [
    Column("group", "GROUP"),
    Column("records", "RECORDS"),
    Column("bytes", "BYTES"),
    Column("tombstones", "TOMBSTONES"),
    Column("commits", "COMMITS"),
    Column("commitsPerMinute", "COMMITS/MIN"),
    Column("firstTimestamp", "FIRST-TIMESTAMP", wide_only=True, timestamp=True),
    Column("lastTimestamp", "LAST-TIMESTAMP", wide_only=True, timestamp=True),
]
TYPE_SUMMARY_COLUMNS = [
    Column("type", "TYPE"),
    Column("name", "NAME"),
    Column("records", "RECORDS"),
    Column("bytes", "BYTES"),
    Column("tombstones", "TOMBSTONES"),
]


#: CSV holds the whole report in one table: the kind column says what each row is (Finding, GroupSummary,
#: TypeSummary or Totals), and each kind fills its own columns.
CSV_COLUMNS = list({c.key: c for c in [Column("kind", "KIND"), *FINDING_COLUMNS, *GROUP_SUMMARY_COLUMNS,
                                        *TYPE_SUMMARY_COLUMNS]}.values())
NO_FINDINGS = "No findings: none of the audit's rules fired on this dump."


def evidence_text(evidence: dict) -> str:
    """Evidence on one table cell: `key=value` pairs, lists comma-joined."""
    return " ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in evidence.items())


def render_report(report: AuditReport, fmt: OutputFormat) -> None:
    """The findings, then (table and wide) both summaries and a totals line; json/yaml: one item with all."""
    if fmt in (OutputFormat.json, OutputFormat.yaml):
        item = {
            "findings": [to_item(f) for f in report.findings],
            "byGroup": report.by_group, "byType": report.by_type, "totals": report.totals,
        }
        render("AuditReport", [], FINDING_COLUMNS, fmt, items=[item])
        return
    rows = [{**to_item(f), "evidence": evidence_text(f.evidence)} for f in report.findings]
    if fmt is OutputFormat.csv:
        _write_csv(report, rows)
        return
    wide = fmt is OutputFormat.wide
    if rows:
        render("AuditReport", rows, FINDING_COLUMNS, fmt)
    else:
        write_prose(NO_FINDINGS)
    typer.echo("")
    write_table(report.by_group, GROUP_SUMMARY_COLUMNS, wide=wide)
    typer.echo("")
    write_table(report.by_type, TYPE_SUMMARY_COLUMNS, wide=wide)
    t = report.totals
    typer.echo("")
    write_prose(f"{counted(t['records'], 'record')}, {counted(t['bytes'], 'byte')}, {counted(t['groups'], 'group')}, "
                f"tombstone ratio {t['tombstoneRatio']:.3f}, {counted(len(report.findings), 'finding')}")


def _write_csv(report: AuditReport, findings: list[dict]) -> None:
    """Findings, then each group's and each record type's summary, then the totals: one CSV, a kind per row."""
    totals = {**report.totals, "findings": len(report.findings)}
    columns = [*CSV_COLUMNS, *(Column(k, k) for k in totals if k not in {c.key for c in CSV_COLUMNS})]
    rows = [*({"kind": "Finding", **f} for f in findings),
            *({"kind": "GroupSummary", **g} for g in report.by_group),
            *({"kind": "TypeSummary", **t} for t in report.by_type),
            {"kind": "Totals", **totals}]
    write_csv(rows, columns)


def check_fail_on(report: AuditReport, fail_on: FailOn) -> None:
    """Call after printing. Damaged input raises PartialFailure (exit 3), as `dump decode` and `dump groups`
    exit for the same input: a damaged or torn batch or a bad dump-log line (each repeated on stderr), and
    a record whose key or value does not decode (the report lists each). The audit saw only part of the
    dump, which outranks any finding. Otherwise raise FindingsReached (exit 4) when a finding is at or
    above `fail_on`."""
    from groupctl.errors import DecodeError, PartialFailure
    from groupctl.log.audit import at_or_above

    damaged = [f.evidence for f in report.findings if f.rule == "invalid-batch"]
    undecodable = sum(1 for f in report.findings if f.rule == "undecodable-record")
    for ev in damaged:
        problem = DecodeError(ev.get("reason", "damaged input"), path=ev.get("file"), position=ev.get("position"))
        typer.echo(f"groupctl: warning: {problem}", err=True)
    if damaged or undecodable:
        parts = []
        if damaged:
            skipped = counted(len(damaged), "damaged batch or line", "damaged batches or lines")
            parts.append(f"{skipped} skipped (see the warnings above)")
        if undecodable:
            parts.append(f"{counted(undecodable, 'record')} whose key or value could not be decoded "
                         "(undecodable-record in the report)")
        raise PartialFailure("; ".join(parts) + "; the audit covers the rest")
    if fail_on is not FailOn.none and any(at_or_above(f, fail_on.value) for f in report.findings):
        raise FindingsReached(f"findings at or above '{fail_on.value}' (see the report)")
