#!/usr/bin/env python3
"""Draws framescope's icon (standard library only) and writes it as
`framescope.png` (256 px, the window's icon) and `framescope.ico` (16 to 256 px, PNG
entries; the Windows executable's icon, embedded by build.rs).

A frame-time chart: even bars under a target line, one stutter spike.
Run: python3 assets/icon/make_icon.py (from the repository root)."""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
BACKGROUND = (30, 36, 48)
BAR = (60, 194, 180)
SPIKE = (240, 140, 40)
LINE = (200, 205, 215)
# (left, top, right, bottom) of each bar in a 0..1 square; the fifth is the spike.
HEIGHTS = [0.30, 0.34, 0.28, 0.32, 0.72, 0.30, 0.35, 0.29]


def inside_rounded(x, y, r=0.18):
    """Whether (x, y) in 0..1 lies inside the rounded square."""
    cx = min(max(x, r), 1 - r)
    cy = min(max(y, r), 1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def colour_at(x, y):
    """The RGBA colour of the point (x, y), y down, in 0..1."""
    if not inside_rounded(x, y):
        return (0, 0, 0, 0)
    left, width, gap, base = 0.14, 0.072, 0.018, 0.84
    for i, h in enumerate(HEIGHTS):
        x0 = left + i * (width + gap)
        if x0 <= x <= x0 + width and base - h <= y <= base:
            return (*(SPIKE if h > 0.5 else BAR), 255)
    if 0.47 <= y <= 0.49 and 0.1 <= x <= 0.9:
        return (*LINE, 255)
    return (*BACKGROUND, 255)


def render(size, ss=4):
    """RGBA rows of the icon at `size` px, supersampled ss x ss."""
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(ss):
                for sx in range(ss):
                    c = colour_at((px + (sx + 0.5) / ss) / size, (py + (sy + 0.5) / ss) / size)
                    a = c[3]
                    acc[0] += c[0] * a
                    acc[1] += c[1] * a
                    acc[2] += c[2] * a
                    acc[3] += a
            n = ss * ss
            alpha = acc[3] / n
            if acc[3]:
                row += bytes(round(acc[k] / acc[3]) for k in range(3))
            else:
                row += b"\0\0\0"
            row.append(round(alpha))
        rows.append(bytes(row))
    return rows


def png(size):
    """The icon at `size` px as PNG bytes (8-bit RGBA)."""
    raw = b"".join(b"\0" + r for r in render(size))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def ico(sizes):
    """An ICO file holding one PNG entry per size."""
    images = [png(s) for s in sizes]
    out = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    for s, data in zip(sizes, images):
        out += struct.pack("<BBBBHHII", s % 256, s % 256, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return out + b"".join(images)


if __name__ == "__main__":
    with open(os.path.join(HERE, "framescope.png"), "wb") as f:
        f.write(png(256))
    with open(os.path.join(HERE, "framescope.ico"), "wb") as f:
        f.write(ico([16, 24, 32, 48, 64, 256]))
