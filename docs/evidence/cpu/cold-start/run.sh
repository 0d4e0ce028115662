#!/usr/bin/env bash
# Compiles the two programs here into a temporary folder and runs each form twice, alternating, with JFR recording
# every compile; prints per run the program's own timings and the C2 compiles of the kernel and of the Vector API's
# Java fallback (jdk.incubator.vector.*, jdk.internal.vm.vector.*). JAVA_HOME: a JDK 25.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
J=${JAVA_HOME:?a JDK 25}/bin
"$J/javac" -nowarn --add-modules jdk.incubator.vector -d "$tmp" "$here"/*.java 2>&1 | grep -v -e '^warning' -e 'incubat' || true
echo "$(date -u '+%F %T UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for program in "GemmTileScalarVsVector 3000" "Q8MatVecScalarVsVector 300"; do
    set -- $program
    for form in vec scalar vec scalar; do
        "$J/java" --add-modules jdk.incubator.vector -Xlog:disable -cp "$tmp" \
            -XX:StartFlightRecording:filename="$tmp/r.jfr",jdk.Compilation#threshold=0ms "$1" "$form" "$2" 2>/dev/null
        "$J/jfr" print --events jdk.Compilation "$tmp/r.jfr" | awk -v cls="$1" '
            /^jdk.Compilation/ {d=""; c=""; m=""; o=""; s=""}
            / duration = / {d=$3 " " $4}
            / compiler = / {c=$3}
            / method = / {m=$3}
            / isOsr = / {o=$3}
            / codeSize = / {s=$3 " " $4}
            /^}/ && c == "\"c2\"" && index(m, cls ".") == 1 {printf "  C2 %s%s: %s, %s of code\n", m, (o == "true" ? " (OSR)" : ""), d, s}
            /^}/ && c == "\"c2\"" && (m ~ /^jdk\.incubator\.vector/ || m ~ /^jdk\.internal\.vm\.vector/) {n++; t += (d ~ / ms$/ ? d + 0 : (d ~ / s$/ ? 1000 * d : d / 1000))}
            END {printf "  C2 of the Vector API fallback: %d compiles, %.0f ms\n", n, t}'
    done
done
