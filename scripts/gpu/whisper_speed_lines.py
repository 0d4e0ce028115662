"""JSON lines for scripts/gpu/whisper-speed.sh (its helpers, with the standard library alone):

    python3 scripts/gpu/whisper_speed_lines.py tag KEY=VALUE... < LINES
        each JSON object line of standard input with the fields added (other lines dropped)

    python3 scripts/gpu/whisper_speed_lines.py cpp LOG_1 LOG_N N JSON_1 KEY=VALUE...
        whisper-cli's own timings (whisper_print_timings) of a process that transcribed the file once (LOG_1) and one
        that transcribed it N times in a row (LOG_N, `-f WAV` N times: one load, timings summed over the files), as one
        line: each part (mel, sample, encode, decode, batchd, prompt) and total - load of both, and the warm
        per-file figures (N-run minus 1-run, over N - 1: the first file's one-off costs, e.g. cuBLAS's set-up and
        buffer allocation, left out, as the engine's warm-up round is); decode_ms_per_token from the N-run's own
        line (decode time over decode runs); tokens counted in JSON_1 (whisper-cli -ojf); whether the CUDA backend
        was used (its log says so).
"""
import json
import re
import sys

PARTS = ("load", "mel", "sample", "encode", "decode", "batchd", "prompt", "total")
LINE = re.compile(r"whisper_print_timings:\s+(\w+) time =\s+([\d.]+) ms(?: /\s+(\d+) runs)?")


def fields(args):
    out = {}
    for a in args:
        k, _, v = a.partition("=")
        try:
            out[k] = json.loads(v)
        except ValueError:
            out[k] = v
    return out


def timings(path):
    t = {}
    text = open(path, errors="replace").read()
    for name, ms, runs in LINE.findall(text):
        t[name] = (float(ms), int(runs) if runs else None)
    return t, text


def cpp(log1, logn, n, json1, extra):
    one, text1 = timings(log1)
    many, textn = timings(logn)
    if "total" not in one or "total" not in many:
        raise SystemExit(f"whisper-cli printed no timings ({log1}: {len(one)} parts, {logn}: {len(many)} parts)")
    line = dict(peer="whisper.cpp", runs_in_process=n)
    for p in PARTS:
        if p in one:
            line[p + "_ms_1"] = one[p][0]
        if p in many:
            line[p + "_ms_n"] = many[p][0]
    line["after_load_ms_1"] = round(one["total"][0] - one.get("load", (0, 0))[0], 2)
    line["after_load_ms_n"] = round(many["total"][0] - many.get("load", (0, 0))[0], 2)
    line["warm_ms_per_file"] = round((line["after_load_ms_n"] - line["after_load_ms_1"]) / (n - 1), 2)
    for p in ("encode", "decode", "batchd", "sample"):
        if p in one and p in many:
            line[f"warm_{p}_ms_per_file"] = round((many[p][0] - one[p][0]) / (n - 1), 2)
    if "decode" in many and many["decode"][1]:
        line["decode_runs_n"] = many["decode"][1]
        line["decode_ms_per_token"] = round(many["decode"][0] / many["decode"][1], 3)
    try:
        # whisper-cli writes random tokens' bytes as they are: control characters, broken UTF-8
        d = json.loads(open(json1, errors="replace").read(), strict=False)
        line["tokens"] = sum(len(s.get("tokens", [])) for s in d["transcription"])
        line["text_tokens"] = sum(1 for s in d["transcription"] for t in s.get("tokens", []) if t["id"] < 50257)
    except (OSError, ValueError, KeyError) as e:
        line["tokens_error"] = str(e)
    line["cuda_used"] = bool(re.search(r"using CUDA\d* backend|CUDA0", text1))
    line.update(extra)
    print(json.dumps(line))


def tag(extra):
    for raw in sys.stdin:
        raw = raw.strip()
        if raw.startswith("{"):
            try:
                d = json.loads(raw)
            except ValueError:
                continue
            d.update(extra)
            print(json.dumps(d))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "tag":
        tag(fields(sys.argv[2:]))
    elif len(sys.argv) >= 6 and sys.argv[1] == "cpp":
        cpp(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], fields(sys.argv[6:]))
    else:
        sys.exit(__doc__)
