#!/usr/bin/env python3
"""Writes COUNT copies of a WIDTH x HEIGHT 16-bit RGBA PNG (standard library
only: zlib, struct), each with its own private ancillary chunk of random bytes that
decoders skip: every file has its own hash and is just under the 5 MB limit
while the pixels are the same. The worst case the upload limits allow: 40
megapixels, 16 bits per channel, a full-size request body.

    make_png16.py OUT_DIR [COUNT] [WIDTH] [HEIGHT]
"""
import os
import struct
import sys
import zlib

LIMIT = 5 * 1024 * 1024


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pixels(width, height):
    """Compressed image data: bands of 64 rows; a band's first row holds 16
    coloured segments (filter None), the other rows repeat it (filter Up)."""
    comp = zlib.compressobj(9)
    out = []
    same = b"\x02" + bytes(width * 8)
    for y in range(height):
        if y % 64 == 0:
            band = y // 64
            row = bytearray(b"\x00")
            for x in range(width):
                seg = x * 16 // width
                row += struct.pack(">HHHH", (band * 997) & 0xFFFF, (seg * 4099) & 0xFFFF,
                                   (band * seg * 131) & 0xFFFF, 0xFFFF - seg * 1000)
            out.append(comp.compress(bytes(row)))
        else:
            out.append(comp.compress(same))
    out.append(comp.flush())
    return b"".join(out)


def main():
    out_dir = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    width = int(sys.argv[3]) if len(sys.argv) > 3 else 6324
    height = int(sys.argv[4]) if len(sys.argv) > 4 else 6324
    head = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 6, 0, 0, 0))
    data = chunk(b"IDAT", pixels(width, height))
    os.makedirs(out_dir, exist_ok=True)
    for i in range(count):
        path = os.path.join(out_dir, f"flood-{i}.png")
        tail = chunk(b"IEND", b"")
        pad = LIMIT - len(head) - len(data) - len(tail) - 12 - 1024
        with open(path, "wb") as f:
            f.write(head + data + chunk(b"prVt", os.urandom(max(pad, 16))) + tail)
        print(path)


if __name__ == "__main__":
    main()
