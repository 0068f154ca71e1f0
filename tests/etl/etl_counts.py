#!/usr/bin/env python3
"""Counts the records of .etl files with the independent reader etl-parser (PyPI,
Apache-2.0, airbus-cert) and prints them as JSON, for tests/headless/etl_fixtures.rs.

For each file: records per header kind (system, perfinfo, full, event, message),
records per provider (the GUID, or "group:N" for kernel system/perfinfo records), and
every TraceLogging event decoded by etl-parser (provider, event name, fields) or the
error it gave. Unlike etl-parser's own EtlFile.parse, the first buffer is read too.
A file etl-parser cannot read gives {"ok": false, "error": ...}.

Usage: etl_counts.py FILE...   (prints one JSON object keyed by the paths given)
"""
import json
import sys

from etl.etl import ChunkParser, EtlLogFile
from etl.parsers.tracelogging import build_tracelogging

KINDS = {
    "SystemTraceRecord": "system",
    "PerfInfoTraceRecord": "perfinfo",
    "TraceRecord": "full",
    "EventRecord": "event",
    "WinTraceRecord": "message",
}


def guid(g):
    i = g.inner
    d4 = bytes(i.data4)
    return "{%08X-%04X-%04X-%s-%s}" % (i.data1, i.data2, i.data3, d4[:2].hex().upper(), d4[2:].hex().upper())


def plain(v):
    """A decoded TraceLogging value as JSON."""
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if hasattr(v, "inner"):
        return guid(v)
    if hasattr(v, "year"):
        return [v.year, v.month, v.day_of_week, v.day, v.hour, v.minute, v.second, v.milliseconds]
    return repr(v)


def provider_of(kind, value):
    if kind == "EventRecord":
        return guid(value.event_header.provider_id)
    if kind == "TraceRecord":
        return guid(value.event_header.guid)
    if kind == "WinTraceRecord":
        return guid(value.event_header.provider_id)
    if kind == "SystemTraceRecord":
        return "group:%d" % int(value.system_header.header.group)
    return "group:%d" % int(value.header.group)


def tracelogging(value):
    if value.extended_data is None or not any(e.ext_type == 11 for e in value.extended_data):
        return None
    out = {"provider": guid(value.event_header.provider_id)}
    try:
        tl = build_tracelogging(value)
        out["name"] = tl.get_name()
        out["fields"] = {k: plain(v) for k, v in tl.items()}
    except Exception as e:  # etl-parser's own limits (FILETIME, structs, ...)
        out["error"] = "%s: %s" % (type(e).__name__, e)
    return out


def count(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        chunks = EtlLogFile.parse(data)
        read = sum(c.header.wnode.buffer_size for c in chunks)
        if read != len(data):
            # GreedyRange stops quietly at the first buffer it cannot parse (compressed).
            return {"ok": False, "error": "etl-parser stops at byte %d of %d" % (read, len(data))}
        kinds, providers, tl = {}, {}, []
        for chunk in chunks:
            for record in ChunkParser.parse(chunk.payload):
                kind = KINDS[record.type]
                kinds[kind] = kinds.get(kind, 0) + 1
                key = provider_of(record.type, record.value)
                providers[key] = providers.get(key, 0) + 1
                if record.type == "EventRecord":
                    t = tracelogging(record.value)
                    if t is not None:
                        tl.append(t)
        return {"ok": True, "records": sum(kinds.values()), "kinds": kinds, "providers": providers, "tracelogging": tl}
    except Exception as e:
        return {"ok": False, "error": "%s: %s" % (type(e).__name__, str(e)[:300])}


if __name__ == "__main__":
    json.dump({p: count(p) for p in sys.argv[1:]}, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
