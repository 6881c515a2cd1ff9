#!/usr/bin/env python3
"""Hostile Auto.ru feeds for the memory test (scripts/test-memory.sh, issue 42).

    hostile_feeds.py OUT_DIR [DEPTH] [BIG_MB]

Writes OUT_DIR/deep.xml: one car holding DEPTH (default 50,000) nested
elements (some 350 KB), beside a plain car; and OUT_DIR/big.xml: plain cars
filling the file to just under BIG_MB (default 50) megabytes, the feed size
limit, every car with a long description and twenty photos. Only the
standard library.
"""

import os
import sys

CAR = """<car>
<unique_id>{key}</unique_id><mark_id>Haval</mark_id><folder_id>Jolion, I</folder_id>
<modification_id>1.5 AMT (150 л.с.)</modification_id><body_type>Внедорожник 5 дв.</body_type>
<color>белый</color><year>2024</year><price>{price}</price><currency>RUR</currency><run>0</run>
<vin>XW{vin:015d}</vin>{extra}
</car>
"""


def main():
    out = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
    big = (int(sys.argv[3]) if len(sys.argv) > 3 else 50) * 1024 * 1024
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "deep.xml"), "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<data>\n<cars>\n')
        nested = "<x>" * depth + "глубоко" + "</x>" * depth
        f.write(CAR.format(key="deep-1", price=2_000_000, vin=1, extra=nested))
        f.write(CAR.format(key="plain-2", price=2_100_000, vin=2, extra=""))
        f.write("</cars>\n</data>\n")
    description = "<description>" + "Отличный автомобиль, полная комплектация. " * 40 + "</description>"
    photos = "<images>" + "".join(
        f"<image>https://example.ru/photo/{n}.jpg</image>" for n in range(20)
    ) + "</images>"
    # Just under the cap (parser.max_feed_bytes, 50 MB by default), so that
    # the feed is read and previewed rather than refused for its size: cars
    # are written while the next one and the closing tags still fit.
    tail = "</cars>\n</data>\n"
    with open(os.path.join(out, "big.xml"), "wb") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<data>\n<cars>\n'.encode("utf-8"))
        n = 0
        while True:
            car = CAR.format(key=f"big-{n}", price=1_000_000 + n, vin=n, extra=description + photos)
            car = car.encode("utf-8")
            if f.tell() + len(car) + len(tail) > big:
                break
            f.write(car)
            n += 1
        f.write(tail.encode("utf-8"))


if __name__ == "__main__":
    main()
