#!/usr/bin/env bash
# Image benchmark: accepting a 5 MB 4000x3000 JPEG photo through
# POST /api/objects/upload (check, decode, three WebP variants 400/800/1600 at
# quality 80, store) against ImageMagick making the same three WebP widths
# from the same file, side by side in one run.
#
#   bench/images.sh            # 7 rounds
#   ROUNDS=3 bench/images.sh
#
# Budget: the upload no slower than ImageMagick (median wall time), and the
# 1600-wide WebP under 300 KB. Exit code 0 when both hold.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-7}

need=()
command -v magick >/dev/null || command -v compare >/dev/null || need+=(imagemagick)
command -v curl >/dev/null || need+=(curl)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
# Debian's convert, not a stand-in earlier on the PATH.
IM=/usr/bin/convert
[ -x /usr/bin/magick ] && IM=/usr/bin/magick

# A release build embeds the built UI and refuses to start without it.
(cd ui && { [ -d node_modules ] || npm install --no-audit --no-fund; } && npm run --silent build)
cargo build --release --locked -q
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A photo-like 4000x3000 JPEG just under 5 MB: smooth fractal plasma with
# fine grain, as a camera gives.
"$IM" -size 4000x3000 -seed 7 plasma:fractal -blur 0x2 -attenuate 0.6 +noise Gaussian \
  -quality 92 -sampling-factor 2x2 "$work/photo.jpg"
size=$(stat -c %s "$work/photo.jpg")
if [ "$size" -gt 5242880 ]; then
  "$IM" "$work/photo.jpg" -quality 84 "$work/photo.jpg"
  size=$(stat -c %s "$work/photo.jpg")
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data="$work/data"
./target/release/dealership --data "$data" migrate >/dev/null
printf 'bench-password\n' | ./target/release/dealership --data "$data" user create bench --password-stdin >/dev/null
./target/release/dealership --data "$data" serve --listen "127.0.0.1:$port" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$port/api/settings" >/dev/null && break
  sleep 0.1
done

now() { date +%s%N; }
ours=()
theirs=()
for round in $(seq "$ROUNDS"); do
  # Different bytes each round (a trailer after the JPEG end marker), so the
  # server cannot answer from an earlier upload of the same file.
  cp "$work/photo.jpg" "$work/round.jpg"
  printf 'round-%s' "$round" >>"$work/round.jpg"

  start=$(now)
  answer=$(curl -fsS -u bench:bench-password -F "file=@$work/round.jpg;type=image/jpeg" \
    "http://127.0.0.1:$port/api/objects/upload")
  ours+=($(( ($(now) - start) / 1000000 )))

  start=$(now)
  "$IM" "$work/round.jpg" -quality 80 \
    \( +clone -resize 1600x -write "$work/im-1600.webp" +delete \) \
    \( +clone -resize 800x -write "$work/im-800.webp" +delete \) \
    -resize 400x "$work/im-400.webp"
  theirs+=($(( ($(now) - start) / 1000000 )))
done

hash=$(printf '%s' "$answer" | python3 -c 'import json,sys; print(json.load(sys.stdin)["hash"])')
our_1600=$(stat -c %s "$data/media/$hash-1600.webp")
im_1600=$(stat -c %s "$work/im-1600.webp")
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
our_median=$(median "${ours[@]}")
im_median=$(median "${theirs[@]}")

report=$(cat <<REPORT
image benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $("$IM" -version | head -1 | cut -d' ' -f2-3)
source: 4000x3000 JPEG, $size bytes; $ROUNDS rounds, alternating
dealership upload (HTTP, checks, 3 WebP q80)   median ${our_median} ms   runs: ${ours[*]}
ImageMagick (decode once, 3 WebP q80)          median ${im_median} ms   runs: ${theirs[*]}
ratio dealership / ImageMagick                 $(python3 -c "print(f'{$our_median/$im_median:.2f}')")
1600 px WebP: dealership $our_1600 bytes, ImageMagick $im_1600 bytes
REPORT
)
echo "$report"
mkdir -p bench/out
echo "$report" >bench/out/images.txt
status=0
if [ "$our_median" -gt "$im_median" ]; then
  echo "BUDGET FAILED: slower than ImageMagick"; status=1
fi
if [ "$our_1600" -ge 307200 ]; then
  echo "BUDGET FAILED: the 1600 px WebP is not under 300 KB"; status=1
fi
[ $status -eq 0 ] && echo "budget: PASS"
exit $status
