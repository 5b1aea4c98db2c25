"""``ruleproof list``: what a model holds, and the short property ids ``-p`` accepts.

For each system of a model: its file and properties file, its scenarios
(checked or not) with their parameters, the parameters of its ``build()``
(type and default), the named mutants its ``MUTANTS`` declares or its rule-mutants
file registers (``--param mutant=NAME``), how many IR mutants ``ruleproof mutants`` makes, and its
properties with their short ids.

A short id is the property's sentence made into a word list (lower case,
``-`` between words, a few filler words left out, at most 36 characters, not ending on a connective);
the consistency checks are named by their check (``deadlock``,
``determinism``, ``must-cannot-<outcome>``).  Ids depend only on the names of
the model's properties: when two different sentences give the same id, both
get ``-`` and the first word that tells them apart (else four hex digits of
the sentence's SHA-1).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import click

from .errors import InputError
from .report import JSON_VERSION

__all__ = ["short_id", "short_ids", "select_properties", "catalog", "render_catalog", "list_command"]

_FILLER = frozenset({"a", "an", "the", "is", "are", "be", "of", "its"})
_CONNECTIVES = frozenset({"and", "or", "in", "on", "by", "for", "with", "to", "at", "from", "as", "than", "when",
                          "while", "once", "if", "that", "it", "can", "no", "not"})
_ID_LIMIT = 36


def short_id(name: str, check: str = "") -> str:
    """The short id of one property sentence (before collisions are resolved)."""
    if check == "must-cannot":
        return "must-cannot-" + short_id(name.split(":", 1)[1] if ":" in name else name)
    if check:
        return check
    words = _words(name)
    kept: list[str] = []
    for w in words:
        if kept and len("-".join([*kept, w])) > _ID_LIMIT:
            while len(kept) > 1 and kept[-1] in _CONNECTIVES:  # an id does not end on "and", "in", ...
                kept.pop()
            break
        kept.append(w)
    return "-".join(kept) or hashlib.sha1(name.encode()).hexdigest()[:8]


def short_ids(props: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``{sentence: id}`` for ``(sentence, check)`` pairs, collisions resolved (see the module doc)."""
    names: dict[str, str] = {}
    for name, check in props:
        names.setdefault(name, short_id(name, check))
    groups: dict[str, list[str]] = {}
    for name, sid in names.items():
        groups.setdefault(sid, []).append(name)
    out = {}
    for sid, group in groups.items():
        for name in group:
            out[name] = sid if len(group) == 1 else _disambiguate(sid, name, [g for g in group if g != name])
    return out


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", name.lower().replace("'", "")) if w and w not in _FILLER]


def _disambiguate(sid: str, name: str, others: list[str]) -> str:
    """``sid`` and the first word of ``name`` that no other sentence of the same id has, else a hash."""
    theirs = {w for o in others for w in _words(o)}
    for w in _words(name):
        if w not in theirs and w not in _CONNECTIVES:
            return f"{sid}-{w}"
    return f"{sid}-{hashlib.sha1(name.encode()).hexdigest()[:4]}"


def select_properties(selectors: Sequence[str], ids: dict[str, str]) -> tuple[str, ...]:
    """The property sentences that ``-p`` selectors name (a sentence or a short id); bad input otherwise."""
    import difflib

    by_id = {sid: name for name, sid in ids.items()}
    out: list[str] = []
    for sel in selectors:
        name = sel if sel in ids else by_id.get(sel)
        if name is None:
            pools = [sorted(by_id), sorted(ids)] if " " not in sel.strip() else [sorted(ids), sorted(by_id)]
            close = difflib.get_close_matches(sel, pools[0], n=1) or difflib.get_close_matches(sel, pools[1], n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise InputError(f"no property named '{sel}' in this model{hint}; `ruleproof list` shows every "
                             "property and its short id")
        if name not in out:
            out.append(name)
    return tuple(out)


@dataclass(frozen=True)
class _Listed:
    spec: Any
    system: Any
    named_mutants: tuple[str, ...]


def catalog(model: str | None, properties: str | None = None) -> dict[str, Any]:
    """What ``ruleproof list --json`` prints: every system of ``model`` and what it holds."""
    from .dsl import display_path
    from .loader import _import, build_parameters, discover, load_system, named_mutants
    from .mutants import mutants_of

    listed = []
    for spec in discover(model, properties):
        named = tuple(n for n, _ in named_mutants(spec))
        listed.append(_Listed(spec, load_system(spec, spec.checked[0]), named))
    ids = short_ids((p.name, p.check) for x in listed for p in x.system.properties)
    systems = []
    for x in listed:
        spec, sy = x.spec, x.system
        params, any_kw = build_parameters(_import(spec.file).build)
        systems.append({
            "system": spec.name,
            "file": display_path(str(spec.file)),
            "properties_file": display_path(str(spec.properties_file)) if spec.properties_file else None,
            "notes": list(spec.notes),
            "scenarios": [{"name": n, "checked": n in spec.checked, "params": dict(p)} for n, p in spec.scenarios],
            "parameters": [{"name": p.name, "type": p.type or None, "default": None if p.required else p.default,
                            "required": p.required} for p in params],
            "any_parameter": any_kw,
            "mutants": list(x.named_mutants),
            "ir_mutants": [m.label for m in mutants_of(sy)],
            "properties_at": sy.scenario,
            "properties": [{"id": ids[p.name], "name": p.name, "kind": p.kind.value, "builtin": p.builtin,
                            "check": p.check or None, "cites": list(p.cites)} for p in sy.properties],
        })
    return {"version": JSON_VERSION, "model": model or "agot (bundled)", "systems": systems}


def _value(v: Any) -> str:
    return json.dumps(v) if not isinstance(v, str) else repr(v)


def render_catalog(cat: dict[str, Any]) -> str:
    """The text of ``ruleproof list``."""
    out = [f"model: {cat['model']}"]
    for s in cat["systems"]:
        out += ["", f"system {s['system']} ({s['file']})"]
        out.append(f"  properties file: {s['properties_file'] or 'none (only what the model file declares)'}")
        out += [f"  note: {n}" for n in s["notes"]]
        out.append("  scenarios:")
        for sc in s["scenarios"]:
            ps = ", ".join(f"{k}={_value(v)}" for k, v in sc["params"].items()) or "the build() defaults"
            out.append(f"    {sc['name']:<12} {'checked' if sc['checked'] else '       '}  {ps}")
        out.append("  build parameters (--param NAME=VALUE):")
        for p in s["parameters"]:
            ty = f": {p['type']}" if p["type"] else ""
            out.append(f"    {p['name']}{ty}" + (" (required)" if p["required"] else f" = {_value(p['default'])}"))
        if s["any_parameter"]:
            out.append("    ... and any other name (build() takes **params)")
        if s["mutants"]:
            out.append(f"  mutants (--param mutant=NAME): {', '.join(s['mutants'])}")
        out.append(f"  IR mutants (ruleproof mutants): {len(s['ir_mutants'])}")
        out.append(f"  properties at scenario {s['properties_at']} (-p ID or -p SENTENCE):")
        w = max((len(p["id"]) for p in s["properties"]), default=0)
        for p in s["properties"]:
            out.append(f"    {p['id']:<{w}}  {p['name']}")
    return "\n".join(out) + "\n"


@click.command(name="list")
@click.argument("model", required=False)
@click.option("--properties", "properties", default=None, metavar="PATH",
              help="Properties file (one-system model) or directory of <system>.py files (default: beside the model).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (version 1).")
def list_command(model: str | None, properties: str | None, as_json: bool) -> int:
    """List the systems of MODEL (default: the bundled AGoT model): scenarios, parameters, mutants, properties.

    Exit status: 0 listed, 2 bad input.
    """
    from .cli_support import streams

    s = streams()
    cat = catalog(model, properties)
    if as_json:
        s.out.write(json.dumps(cat, indent=2, ensure_ascii=False, default=str) + "\n")
    else:
        s.out.write(render_catalog(cat))
    return 0
