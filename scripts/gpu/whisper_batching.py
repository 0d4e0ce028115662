"""Helpers of scripts/gpu/whisper-batching.sh (Whisper's many-streams comparison), standard library only:

    python3 scripts/gpu/whisper_batching.py audio OUT_DIR [N]
        writes N (default 10) "recordings" 000.wav ... for scripts/gpu/asr-load.py, cut from the repository's two
        example clips (docs/examples/dashwood.wav, 7.1 s, and speech.wav, 7.5 s; the tracked tree is carried to the
        device, so nothing else has to ride along): recording k is dashwood rotated by 0.61 k s, then speech rotated by
        0.73 k s, cut to 12.0 + 0.25 k s. asr-load.py sends pairs of them with 0.8 s of silence between: 25.05 to 29.05 s,
        each one Whisper window (at most 30 s). What the audio says does not matter to the muted model (it decodes 220
        tokens whatever it hears); its length is the numerator of both sides' x real time.

    python3 scripts/gpu/whisper_batching.py probe URL AUDIO_DIR
        one request of the first pair (as asr-load.py sends it, with ASR_MODEL and ASR_FIELDS), verbose_json: prints
        the tokens decoded and each segment's temperature; exit status 3 when a segment's temperature is above 0 (the
        server ran Whisper's temperature fallback: every muted window fails its checks, so each request would decode
        1 + 5 x 5 times at temperatures 0.2 ... 1.0 with best-of 5, not the single greedy pass the comparison is of),
        2 when the request failed, 0 otherwise (a token count other than 220 is printed as a warning).

    python3 scripts/gpu/whisper_batching.py summary ENGINE_JSONL PEER_JSONL [LONE_JSONL] [RULES_JSONL] [METRICS]
        scripts/gpu/batching_alternating_summary.py's medians and ratio (engine rounds against the peer's best
        configuration per round), then windows and tokens a second for both sides, the lone client's round, the peer
        with Whisper's timestamp rules, and the server's batch figures (/metrics).
"""
import json
import os
import statistics
import sys
import time
import wave

RATE = 16000


def read_pcm(path):
    with wave.open(path) as w:
        assert w.getframerate() == RATE and w.getnchannels() == 1 and w.getsampwidth() == 2, path
        return w.readframes(w.getnframes())


def write_wav(path, frames):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def rotate(pcm, seconds):
    at = (int(seconds * RATE) * 2) % len(pcm)
    return pcm[at:] + pcm[:at]


def audio(out_dir, n=10, examples="docs/examples"):
    a = read_pcm(os.path.join(examples, "dashwood.wav"))
    b = read_pcm(os.path.join(examples, "speech.wav"))
    os.makedirs(out_dir, exist_ok=True)
    lengths = []
    for k in range(n):
        pcm = rotate(a, 0.61 * k) + rotate(b, 0.73 * k)
        samples = int((12.0 + 0.25 * k) * RATE)
        pcm = (pcm * 2)[:2 * samples]  # the two make 14.6 s: only k >= 11 would need the repeat
        write_wav(os.path.join(out_dir, f"{k:03d}.wav"), pcm)
        lengths.append(samples / RATE)
    print(json.dumps({"recordings": n, "dir": out_dir, "seconds": lengths,
                      "pair_seconds_max": round(lengths[-1] + lengths[-2] + 0.8, 2)}))


def probe(url, audio_dir):
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.util
    spec = importlib.util.spec_from_file_location("asr_load", os.path.join(here, "asr-load.py"))
    load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load)
    import urllib.request
    import uuid
    recs = sorted(f for f in os.listdir(audio_dir) if f.startswith("0") and f.endswith(".wav"))
    body = load.wav_bytes(read_pcm(os.path.join(audio_dir, recs[0])) + b"\0\0" * 12800
                          + read_pcm(os.path.join(audio_dir, recs[1])))
    boundary = uuid.uuid4().hex
    fields = [("model", load.MODEL), ("response_format", "verbose_json")] + load.FIELDS
    data = b"".join(f"--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n".encode()
                    for k, v in fields)
    data += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"pair.wav\"\r\n"
             f"Content-Type: audio/wav\r\n\r\n").encode() + body + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(url + "/v1/audio/transcriptions", data=data,
                                 headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            doc = json.loads(r.read())
            ignored = r.headers.get("X-Audioengine-Ignored")
    except Exception as e:  # noqa: BLE001 - reported, the caller stops
        detail = e.read().decode(errors="replace")[:500] if hasattr(e, "read") else ""
        print(f"probe: the request failed: {e!r} {detail}")
        return 2
    wall = time.perf_counter() - t0
    segs = doc.get("segments", [])
    tokens = sum(len(s.get("tokens", [])) for s in segs)
    temps = sorted({s.get("temperature", 0) for s in segs})
    print(json.dumps({"probe": load.MODEL, "fields": dict(load.FIELDS), "audio_s": round((len(body) - 44) / 32000, 2),
                      "wall_s": round(wall, 2), "segments": len(segs), "tokens": tokens, "temperatures": temps,
                      "language": doc.get("language"), "ignored_fields": ignored}))
    if tokens != 220:
        print(f"probe: WARNING: {tokens} tokens, not the muted model's 220 a window: the figures below are not of "
              f"the forced 220-token decode the peer is forced to")
    if any(t > 0 for t in temps):
        print("probe: the server fell back to higher temperatures (Whisper's temperature fallback: a muted window "
              "always fails its checks). The comparison needs one greedy pass a window, as `bench asr --no-fallback`; "
              "this server gives no way to ask for it (a serve option such as --no-fallback, or a form field named "
              "in ASR_FIELDS). ALLOW_FALLBACK=1 measures it anyway.")
        return 3
    return 0


def lines(path):
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(l) for l in f if l.startswith("{")]


def rates(e):
    """An asr-load.py line's windows and tokens a second over its timed load (one window a request here)."""
    tokens = e["tokens_per_pass"] / e["clients"] * e["requests"]  # each client sends its own pair ROUNDS times
    return e["requests"] / e["wall_s"], tokens / e["wall_s"]


def summary(engine_path, peer_path, lone_path=None, rules_path=None, metrics_path=None):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import batching_alternating_summary
    batching_alternating_summary.main(engine_path, peer_path)
    engine, peer = lines(engine_path), lines(peer_path)
    if engine:
        w = [rates(e)[0] for e in engine]
        t = [rates(e)[1] for e in engine]
        print(f"engine, {engine[0]['clients']} clients: windows/s median {statistics.median(w):.1f}, tokens/s median "
              f"{statistics.median(t):.0f} (rounds: {', '.join(f'{x:.1f}' for x in w)} windows/s); single stream "
              f"(each round's pass of one request at a time) {', '.join(str(e['single_stream_median_ms']) for e in engine)} ms")
    configs = {}
    for p in peer:
        configs.setdefault((p["dtype"], p["batch"], p.get("timestamps")), []).append(p)
    for (dtype, batch, ts), ps in sorted(configs.items(), key=lambda kv: str(kv[0])):
        print(f"peer {dtype} batch {batch} timestamps {ts}: {len(ps)} rounds, x real time median "
              f"{statistics.median(p['audio_s_per_s'] for p in ps)}, windows/s {statistics.median(p['windows_per_s'] for p in ps)}, "
              f"tokens/s {statistics.median(p['tokens_per_s'] for p in ps)}")
    for e in lines(lone_path):
        w, t = rates(e)
        print(f"{e['label']} (1 client, {e['requests']} requests one after another): {e['audio_s_per_s']} audio s/s, "
              f"{w:.2f} windows/s, {t:.0f} tokens/s, {1000 * e['wall_s'] / e['requests']:.0f} ms a request")
    for p in lines(rules_path):
        print(f"{p.get('label', 'peer')} (timestamps {p.get('timestamps')}): {p['dtype']} batch {p['batch']}: "
              f"{p['audio_s_per_s']} audio s/s, {p['windows_per_s']} windows/s, {p['tokens_per_s']} tokens/s")
    if metrics_path and os.path.exists(metrics_path):
        with open(metrics_path) as f:
            keep = [l.strip() for l in f if l.startswith(("audioengine_batch_occupancy", "audioengine_batch_windows_total",
                                                          "audioengine_batch_lone_windows_total",
                                                          "audioengine_batch_steps_total"))]
        print("server batch figures after the alternating rounds: " + ("; ".join(keep) if keep else "none"))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "audio":
        audio(args[0], int(args[1]) if len(args) > 1 else 10)
    elif cmd == "probe":
        sys.exit(probe(args[0], args[1]))
    elif cmd == "summary":
        summary(*args)
    else:
        sys.exit(__doc__)
