#!/usr/bin/env bash
# Byte-identical outputs: runs a fixed set of commands through the release
# binary and lists the SHA-256 of everything each one leaves behind (its
# standard output, its standard error, its exit status and every file it
# writes). A change that must not change behaviour (a move, a split, a
# rename) is checked by comparing that list with the committed one.
#
#   .ci/identical.sh           # compare with identical.sha256 (CI)
#   .ci/identical.sh --bless   # rewrite identical.sha256 on purpose
#
# What differs from run to run is replaced before hashing: `solve`'s times,
# this script's temporary folder and random temporary file names.
# SHUBBLES_BIN and KATAZUKE_BIN override the binaries (default
# target/release/shubbles and target/release/katazuke).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${SHUBBLES_BIN:-$root/target/release/shubbles}
katazuke=${KATAZUKE_BIN:-$root/target/release/katazuke}
expected=$here/identical.sha256
mode=${1:---check}
case "$mode" in
  --check | --bless) ;;
  *) echo "usage: $0 [--check | --bless]" >&2; exit 2 ;;
esac
for binary in "$bin" "$katazuke"; do
  [ -x "$binary" ] || { echo "identical.sh: no binary at $binary (cargo build --release)" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=$work/in
mkdir -p "$inputs"
listing=$work/listing

fig=.........@...o....ooo..xox...
ops='+>|<-v+^+'
escape=@................x.....o..x..
leave=@................x.....x..o..
wall=@......................x.x...
loaded=...................x...x@....
unstable=.o.......@...o....ooo..xox...
unsolvable=oooxoooooooxooooooooooooooo@.

# What changes between runs: times in solve's summary and JSON, the
# temporary folder this script runs in, and random temporary file names.
untime() {
  sed -E -e 's/in [0-9]+\.[0-9] ms/in # ms/; s/"time_ms":[0-9.]+/"time_ms":#/' \
    -e "s|$work|WORK|g" -e 's/\.shubbles-[A-Za-z0-9]{6}\.tmp/.shubbles-#.tmp/g'
}

hash() { sha256sum | cut -d' ' -f1; }

# run NAME STDIN ARGS...: runs the binary in an empty folder with STDIN (a
# file, or - for none) and lists what it left.
run() {
  local name=$1 input=$2
  shift 2
  local dir=$work/run
  rm -rf "$dir"
  mkdir -p "$dir"
  local status=0
  if [ "$input" = - ]; then
    (cd "$dir" && "$bin" "$@" </dev/null >"$work/stdout" 2>"$work/stderr") || status=$?
  else
    (cd "$dir" && "$bin" "$@" <"$input" >"$work/stdout" 2>"$work/stderr") || status=$?
  fi
  {
    echo "$name status $status"
    echo "$name stdout $(untime <"$work/stdout" | hash)"
    echo "$name stderr $(untime <"$work/stderr" | hash)"
    (cd "$dir" && find . -type f | LC_ALL=C sort | while read -r file; do
      case $file in
        # A batch manifest names its input files, which live in $work.
        */MANIFEST-*) echo "$name file ${file#./} $(untime <"$file" | hash)" ;;
        *) echo "$name file ${file#./} $(hash <"$file")" ;;
      esac
    done)
  } >>"$listing"
}

printf '%s %s\n' "$fig" "$ops" >"$inputs/fig1a.txt"
printf '%s +\n' "$fig" >"$inputs/fig1a-turn.txt"
printf '%s\n' "$fig" >"$inputs/state-only.txt"
printf '%s x\n' "$fig" >"$inputs/foreign-op.txt"
printf '%s + -\n' "$fig" >"$inputs/extra.txt"
printf '   \n' >"$inputs/blank.txt"
printf '%s\n' "$escape" >"$inputs/escape.txt"
cat >"$inputs/scenarios.txt" <<EOF
# STATE                       OPS        NAME (optional)
$fig $ops fig1a
$fig +^^
$fig .          start

$escape +- escape
$leave +- leave
$wall <
$loaded >       loaded
${fig}x -
$fig | ../evil
$fig |
$fig + fig1A
$unstable
$fig + a b c
EOF
printf '%s --| piped\n%s -+\n' "$fig" "$leave" >"$inputs/piped.txt"

# The text commands.
for command in text ascii frames events; do
  run "$command-fig1a" - "$command" "$fig" "$ops"
  run "$command-fig1a-turn" - "$command" "$fig" +
  run "$command-half-turn" - "$command" "$fig" '|'
  run "$command-failed-wall" - "$command" "$fig" '+^^'
  run "$command-escape" - "$command" "$escape" +-
  run "$command-leave" - "$command" "$leave" +-
  run "$command-loaded" - "$command" "$loaded" '>'
  run "$command-stdin" "$inputs/fig1a.txt" "$command"
  run "$command-settle" - "$command" --settle "$unstable" '+'
done
run text-dashes - text "$fig" --
run text-dash-ops - text "$fig" -+
run text-separated - text -- "$fig" --
run text-state-only - text "$fig"
run text-stdin-state-only "$inputs/state-only.txt" text
for bad in "" "${fig}." "${fig%?}" ".........@...o....ooo..xoX..." ".........@...o....ooo..xoo..." \
  ".........@...o....ooo..xox@.." ".........@...o....ooo..xox..o" "$unstable" "naïve"; do
  run "text-bad-state-[$bad]" - text "$bad" +
done
run text-bad-op - text "$fig" '+>a'
run text-stdin-foreign-op "$inputs/foreign-op.txt" text
run text-stdin-extra "$inputs/extra.txt" text
run text-stdin-blank "$inputs/blank.txt" text
run text-unknown-option - text --bogus "$fig"
run text-too-many - text "$fig" + +

# GIFs, PNGs and the demo.
run gif-default-command - "$fig" "$ops"
run gif-fig1a - gif "$fig" "$ops" -o fig1a.gif
run gif-caption-numbers - gif "$fig" "$ops" --caption --numbers -o explained.gif
run gif-cell-37 - gif "$fig" "$ops" --cell-size 37
run gif-cell-4-caption - gif "$escape" +- --cell-size 4 --caption
run gif-failed - gif "$fig" '+^^' -o failed.gif
run gif-failed-stdout - gif "$fig" '+^^' -o -
run gif-escape-caption - gif "$escape" +- --caption --numbers
run gif-wall-caption - gif "$wall" '<' --caption
run gif-loaded - gif "$loaded" '>'
run gif-leave - gif "$leave" +- -o -
run gif-stdin "$inputs/fig1a.txt" -o fig1a.gif
run gif-settle - gif --settle "$unstable" '+' --cell-size 24
run gif-cell-3 - gif "$fig" --cell-size 3
run gif-cell-201 - gif "$fig" --cell-size 201
run gif-bad-state - gif "${fig}x" -o bad.gif
run gif-unwritable - gif "$fig" -o no/such/folder/x.gif
run smooth-fig1a - smooth "$fig" "$ops"
run smooth-caption-numbers-23 - smooth "$fig" '+>|' --caption --numbers --cell-size 23 -o half.gif
run smooth-escape - smooth "$escape" +- --cell-size 17
run smooth-leave-stdout - smooth "$leave" +- -o - --cell-size 19
run smooth-wall-caption - smooth "$wall" '<' --caption --cell-size 21
run smooth-settle - smooth --settle "$unstable" '' --cell-size 15
# The animation formats and the size budget (issue 25).
run gif-webp - gif "$fig" "$ops" -o fig1a.webp
run gif-apng-caption - gif "$fig" "$ops" --caption -o fig1a.apng
run smooth-webp-numbers - smooth "$fig" '+>|' --numbers --cell-size 23 -o half.webp
run smooth-png-stdout - smooth "$leave" +- --format apng -o - --cell-size 19
run demo-max-size - demo --max-size 20KB -o small.gif
run smooth-max-size - smooth "$fig" "$ops" --max-size 80KB -o small.webp
run demo-max-size-refused - demo --max-size 2KB -o none.gif
run demo-format-contrary - demo --format webp -o demo.gif
run png-fig1a - png "$fig" "$ops" -o final.png
run png-default - png "$fig" '+'
run png-failed - png "$fig" '+^^'
run png-caption-numbers-31 - png "$loaded" '>' --caption --numbers --cell-size 31 -o -
run demo - demo
run demo-numbers-13 - demo --numbers --cell-size 13 -o d.gif
run demo-caption - demo --caption -o -

# Event logs read back.
"$bin" events "$fig" "$ops" >"$inputs/run.jsonl"
"$bin" events "$escape" +- >"$inputs/escape.jsonl" 2>/dev/null || true # a failed run: exit 3
"$bin" events --settle "$unstable" '+' >"$inputs/settle.jsonl"
head -n 3 "$inputs/run.jsonl" >"$inputs/truncated.jsonl"
printf '{"kind":"start","state":"%s","operations":"+","settle":false}\n{"frame":1,"kind":"bogus"}\n' "$fig" >"$inputs/bad.jsonl"
printf 'not json\n' >"$inputs/garbage.jsonl"
for log in run escape settle truncated; do
  run "from-events-gif-$log" - gif --from-events "$inputs/$log.jsonl" -o "$log.gif"
  run "from-events-png-$log" - png --from-events "$inputs/$log.jsonl" --caption -o "$log.png"
  run "from-events-smooth-$log" - smooth --from-events "$inputs/$log.jsonl" --cell-size 11 -o "$log.gif"
done
run from-events-bad - gif --from-events "$inputs/bad.jsonl"
run from-events-garbage - gif --from-events "$inputs/garbage.jsonl"
run from-events-missing - gif --from-events "$inputs/missing.jsonl"
run from-events-and-state - gif --from-events "$inputs/run.jsonl" "$fig"

# The solver.
run solve-fig1a - solve "$fig"
run solve-json - solve "$fig" --json
run solve-pictures - solve "$escape" --gif answer.gif --smooth answer-smooth.gif --cell-size 22
run solve-stdin "$inputs/escape.txt" solve --json
run solve-unsolvable - solve "$unsolvable"
run solve-unsolvable-json - solve "$unsolvable" --json
run solve-limit - solve "$fig" --max-states 100

# The table: its file byte for byte, what it answers, and its refusal.
run table-build - table build --max-shubbles 3 -o t.table -q
"$bin" table build --max-shubbles 3 -o "$inputs/t.table" -q
run table-query - table query --table "$inputs/t.table" "$leave" "$loaded" "$wall"
run table-solve - solve "$leave" --table "$inputs/t.table" --json
run table-not-covered - table query --table "$inputs/t.table" "$fig"
run table-stats - table stats --table "$inputs/t.table"
run solve-limit-json - solve "$fig" --max-states 0 --json
run solve-no-shubbles - solve @......................x.x... --json
run solve-with-ops - solve "$fig" +
run solve-unstable - solve "$unstable"

# Batches in every format.
for format in gif smooth webp smooth-webp apng smooth-apng png text ascii; do
  run "batch-$format" - batch "$inputs/scenarios.txt" --out-dir out --format "$format" --cell-size 9
done
run batch-default - batch "$inputs/scenarios.txt" --out-dir out --jobs 1
run batch-max-size - batch "$inputs/scenarios.txt" --out-dir out --format smooth --max-size 60KB
run batch-two-files - batch "$inputs/piped.txt" "$inputs/fig1a.txt" --out-dir out --format text --jobs 2
run batch-stdin "$inputs/piped.txt" batch - --out-dir out --format ascii
run batch-settle - batch "$inputs/scenarios.txt" --out-dir out --format text --settle
run batch-missing-file - batch "$inputs/missing.txt" --out-dir out
run batch-bad-format - batch "$inputs/piped.txt" --out-dir out --format jpeg
run batch-no-out-dir - batch "$inputs/piped.txt"

# Help, version and usage.
run help - --help
run version - --version
for command in gif smooth text ascii frames png events solve demo batch; do
  run "help-$command" - "$command" --help
done
run help-command - help solve
run short-help - -h

# katazuke: the same listing, through the other binary.
krun() {
  local shubbles=$bin
  bin=$katazuke
  run "$@"
  bin=$shubbles
}
practice=$root/examples/katazuke/practice.ktz
played=$root/examples/katazuke/builtin-vs-greedy.ktz
cp "$practice" "$inputs/practice.ktz"
sed 's/^ 5\. A 2.5 clear c2:3/ 5. A 2.5 clear c1:3/' "$practice" >"$inputs/illegal.ktz"
sed 's/^capacity: 4/capacity: four/' "$practice" >"$inputs/malformed.ktz"
sed 's/^ 9\. A 2.0 place d2/ 9. A 0 place d2/' "$practice" >"$inputs/warning.ktz"
head -n 30 "$practice" >"$inputs/unfinished.ktz"
printf '\357\273\277' | cat - "$practice" >"$inputs/bom.ktz"
for log in practice illegal malformed warning unfinished bom; do
  for command in check "check --json" events fmt "ascii --every"; do
    # shellcheck disable=SC2086 # the command's words
    krun "katazuke-${command// /}-$log" - $command "$inputs/$log.ktz"
  done
  krun "katazuke-check-pass-$log" - check --illegal pass "$inputs/$log.ktz"
  krun "katazuke-check-json-pass-$log" - check --json --illegal pass "$inputs/$log.ktz"
done
krun katazuke-check-stdin "$inputs/practice.ktz" check -
krun katazuke-check-played - check "$played"
krun katazuke-ascii-turn - ascii --turn 1:9 "$inputs/practice.ktz"
krun katazuke-ascii-no-turn - ascii --turn 2:99 "$inputs/practice.ktz"
krun katazuke-replay - replay "$inputs/practice.ktz" -o practice.gif
krun katazuke-replay-options - replay "$inputs/practice.ktz" --hints --comments --cell 40 --delay 50 -o options.gif
krun katazuke-replay-game-2 - replay "$inputs/practice.ktz" --game 2 --from-turn 3 -o game2.gif
krun katazuke-replay-webp - replay "$inputs/practice.ktz" --game 1 -o game1.webp
krun katazuke-replay-apng - replay "$inputs/practice.ktz" --game 1 --format apng
krun katazuke-replay-max-size - replay "$inputs/practice.ktz" --max-size 100KB -o small.gif
krun katazuke-replay-pass - replay --illegal pass "$inputs/illegal.ktz" -o pass.gif
krun katazuke-replay-illegal - replay "$inputs/illegal.ktz" -o illegal.gif
krun katazuke-replay-annotated - replay "$played" --annotate -o annotated.gif
"$katazuke" events "$inputs/practice.ktz" >"$inputs/practice.jsonl"
krun katazuke-replay-events - replay --from-events "$inputs/practice.jsonl" -o events.gif
krun katazuke-suggest - suggest "$inputs/practice.ktz" --at 1:9
krun katazuke-suggest-json - suggest "$inputs/unfinished.ktz" --json --level 2
krun katazuke-play - play --A builtin --B builtin:greedy --clock virtual -o match.ktz --events match.jsonl --gif match.gif
krun katazuke-play-random - play --A builtin:random --B builtin:2 --clock virtual --start random --seed 7 -o -
krun katazuke-play-params - play --A builtin:1 --B builtin:greedy --clock virtual --params "$inputs/practice.ktz" -o m.ktz
krun katazuke-play-unwritable - play --A builtin --B builtin:greedy --clock virtual -o no/such/folder/m.ktz
krun katazuke-tournament - tournament builtin:1 builtin:greedy builtin:random --fields 2 --clock virtual --results r.jsonl --records records -q
krun katazuke-help - --help
krun katazuke-version - --version
for command in check events replay fmt ascii play suggest tournament; do
  krun "katazuke-help-$command" - "$command" --help
done

if [ "$mode" = --bless ]; then
  cp "$listing" "$expected"
  echo "identical.sh: wrote $(wc -l <"$expected") lines to ${expected#"$root"/}"
elif diff -u "$expected" "$listing" >"$work/diff"; then
  echo "identical.sh: $(wc -l <"$listing") outputs identical to ${expected#"$root"/}"
else
  echo "identical.sh: outputs differ from ${expected#"$root"/}:" >&2
  cat "$work/diff" >&2
  exit 1
fi
