#!/usr/bin/env python3
"""Checks a window screenshot (standard library only): a PNG of the expected size
that is not blank (many colours, no colour covering nearly all of it).

Usage: check_png.py FILE WIDTH HEIGHT; exit 0 when it passes, 1 with the reason."""
import struct
import sys
import zlib


def read_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG (starts with %r)" % data[:8])
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("unsupported PNG (depth %d, colour type %d, interlace %d)" % (depth, colour, interlace))
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    width, height, channels, rows = read_png(path)
    if (width, height) != (want_w, want_h):
        print("error: %s is %dx%d, expected %dx%d" % (path, width, height, want_w, want_h))
        return 1
    counts = {}
    for row in rows[::4]:
        for x in range(0, width * channels, channels * 4):
            key = row[x:x + 3]
            counts[key] = counts.get(key, 0) + 1
    total = sum(counts.values())
    top = max(counts.values())
    print("%s: %dx%d, %d colours in a 1/16 sample, the commonest covers %.1f%%"
          % (path, width, height, len(counts), 100.0 * top / total))
    if len(counts) < 16 or top > 0.95 * total:
        print("error: the screenshot looks blank")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
