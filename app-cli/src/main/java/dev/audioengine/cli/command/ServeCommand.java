package dev.audioengine.cli.command;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.api.BackendType;
import dev.audioengine.cli.CliContext;
import dev.audioengine.cli.ErrorReporter;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.task.Batching;
import dev.audioengine.server.ServerConfig;
import dev.audioengine.server.SpeechServer;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code audioengine serve}: the OpenAI-compatible speech server (module dev.audioengine.server) on the engine the
 * global options describe. The CLI compiles against the server module and hands it a typed config: one caller, one
 * implementation, so no service indirection. Runs until SIGTERM or Ctrl-C, which drain the requests in flight first.
 */
@Command(
        name = "serve",
        sortOptions = false,
        description = {
            "Serve speech models over HTTP, OpenAI-compatible: POST /v1/audio/transcriptions (json, text, srt, vtt, "
                    + "verbose_json, stream=true as Server-Sent Events), POST /v1/audio/speech (wav, pcm, flac; streamed as "
                    + "audio or Server-Sent Events), GET /v1/audio/voices, GET /v1/models, POST /v1/audio/vad (speech segments), "
                    + "GET /v1/realtime?intent=transcription (live transcription over WebSocket, as OpenAI's Realtime), "
                    + "GET /health, /ready and /metrics (Prometheus); with --ui a web page at /. See docs/SERVER.md.",
            "One log line per request on stderr. SIGTERM (or Ctrl-C) stops accepting, lets requests in flight finish, "
                    + "then exits.",
            ""
        },
        footer = {
            "",
            "Exit status: 1 the server could not start (backend unavailable, the port in use, --host not an address of this "
                    + "machine, a model failed to preload), 2 usage error (an empty --api-key included); stopped by SIGTERM the JVM exits 143."
        })
public final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    private CliContext parent;

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--host",
            paramLabel = "ADDRESS",
            description = "Address to listen on. Default: 127.0.0.1 (this machine only); "
                    + "0.0.0.0 listens on every interface.")
    private String host = ServerConfig.DEFAULT_HOST;

    @Option(names = "--port", paramLabel = "N", description = "Port to listen on (0 picks a free one). Default: 8080.")
    private int port = ServerConfig.DEFAULT_PORT;

    @Option(
            names = "--models",
            paramLabel = "NAME[,NAME...]",
            split = ",",
            description = "Models to serve, by the names of 'audioengine models list' (asr, tts, vad, kws and notes "
                    + "models), or NAME=PATH to serve a file or folder of yours under NAME (e.g. "
                    + "my-whisper=ggml-base.bin); a request names one by its name or alias. Default: "
                    + "moonshine-tiny,kokoro,silero_vad.")
    private List<String> models = ServerConfig.DEFAULT_MODELS;

    @Option(
            names = "--max-concurrent",
            paramLabel = "N",
            description = "Requests each model works on at once. Default: 2, or --max-batch when that is larger "
                    + "(a batch fills only with as many requests at once).")
    private int maxConcurrent = 2;

    @Option(
            names = "--max-batch",
            paramLabel = "N",
            description = "ASR windows of concurrent requests decoded together, up to N per decoder step (1 to 1024; "
                    + "1: one at a time). Default: 64 on a GPU backend, where a step over 64 sequences costs little more "
                    + "than over one; 1 on the CPU, where it does not pay (docs/PERFORMANCE.md).")
    private Integer maxBatch;

    @Option(
            names = "--gpu-memory-budget",
            paramLabel = "SIZE",
            description = "The most device memory the batched decoder's key/value caches may take, e.g. 2G or 512M; "
                    + "the batch holds as many sequences as fit (at most --max-batch) and further requests queue. "
                    + "Default: no limit beyond --max-batch.")
    private String gpuMemoryBudget;

    @Option(
            names = "--tts-replicas",
            paramLabel = "N",
            description = "Copies of each speech synthesis model per device, each on an engine (a GPU stream) of its "
                    + "own, so that concurrent speech requests overlap on the device (1 to 16). A copy makes one piece "
                    + "at a time, which leaves a GPU partly idle: on an H200, Kokoro made 1.42x as much audio with 2 "
                    + "and 1.71x with 4 (docs/PERFORMANCE.md); each copy holds its own weights. On the CPU the copies "
                    + "share the cores. Default: 1.")
    private int ttsReplicas = 1;

    @Option(
            names = "--queue",
            paramLabel = "N",
            description = "Requests each model keeps waiting beyond those; more are refused "
                    + "with 503 and Retry-After. Default: 16.")
    private int queue = 16;

    @Option(
            names = "--queue-timeout-s",
            paramLabel = "S",
            description = "How long a request may wait in the queue before it is " + "refused with 503. Default: 30.")
    private double queueTimeoutS = 30;

    @Option(
            names = "--max-upload-mb",
            paramLabel = "N",
            description = "Largest request body in MiB; larger ones are refused with 413 "
                    + "(by Content-Length before the body is read). Default: 25, OpenAI's limit.")
    private long maxUploadMb = 25;

    @Option(
            names = "--max-input-chars",
            paramLabel = "N",
            description = "Longest text POST /v1/audio/speech says in one request, "
                    + "in characters; longer is refused with 400. Default: 4096, OpenAI's limit.")
    private int maxInputChars = ServerConfig.DEFAULT_MAX_INPUT_CHARS;

    @Option(
            names = "--api-key",
            paramLabel = "KEY",
            defaultValue = "${env:AUDIOENGINE_API_KEY}",
            description = "Require "
                    + "'Authorization: Bearer KEY' on /v1 requests (401 otherwise; /health, /ready and /metrics stay open). "
                    + "Default: $AUDIOENGINE_API_KEY, else none (prefer the variable: a command line is visible to other users). An empty "
                    + "key (an unset variable) is a usage error, not an open server.")
    private String apiKey;

    @Option(
            names = "--preload",
            description = "Load every model before reporting ready (otherwise each loads on its first request).")
    private boolean preload;

    @Option(
            names = "--upload-stall-s",
            paramLabel = "S",
            description = "An upload that sends nothing for this long is answered with 408 and ended; a live "
                    + "transcription session (/v1/realtime) whose client sends nothing for this long is "
                    + "closed (code 1008). Default: 30.")
    private double uploadStallS = 30;

    @Option(
            names = "--header-timeout-s",
            paramLabel = "S",
            description = "A client must send the rest of its headers within this "
                    + "long of its request line, or it is disconnected (logged as 408). Default: 10.")
    private double headerTimeoutS =
            ServerConfig.Connections.DEFAULTS.headerTimeout().toMillis() / 1000.0;

    @Option(
            names = "--idle-timeout-s",
            paramLabel = "S",
            description =
                    "A connection with no request under way (none yet, or "
                            + "kept alive after one) is closed after this long. Default: 75 (above the 60 s balancers keep idle connections).")
    private double idleTimeoutS =
            ServerConfig.Connections.DEFAULTS.idleTimeout().toMillis() / 1000.0;

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            description = "Connections open at once; more wait in the kernel's "
                    + "accept queue until one closes. Default: 512.")
    private int maxConnections = ServerConfig.Connections.DEFAULTS.maxConnections();

    @Option(
            names = "--ui",
            description = "Serve a web page at / to try the models in a browser: live transcription from the "
                    + "microphone (over the WebSocket GET /v1/realtime), a file's transcript with timestamps, and "
                    + "text read aloud with a voice picker. Static files in the server jar; nothing loaded from "
                    + "elsewhere. Default: off (/ answers 404).")
    private boolean ui;

    @Option(
            names = "--drain-timeout-s",
            paramLabel = "S",
            description = "On SIGTERM, how long requests in flight may take to finish. " + "Default: 30.")
    private double drainTimeoutS = 30;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        ServerConfig config = UsageError.of(() -> {
            if (maxUploadMb < 1 || maxUploadMb > (Long.MAX_VALUE >> 20))
                throw new IllegalArgumentException("--max-upload-mb must be at least 1, got " + maxUploadMb);
            return new ServerConfig(
                    host,
                    port,
                    models,
                    maxConcurrent,
                    queue,
                    seconds("--queue-timeout-s", queueTimeoutS),
                    maxUploadMb << 20,
                    maxInputChars,
                    // an empty key is refused there: it is an unset variable, not a wish for an open server
                    Optional.ofNullable(apiKey),
                    preload,
                    seconds("--upload-stall-s", uploadStallS),
                    seconds("--drain-timeout-s", drainTimeoutS),
                    new ServerConfig.Connections(
                            seconds("--header-timeout-s", headerTimeoutS),
                            seconds("--idle-timeout-s", idleTimeoutS),
                            maxConnections),
                    Batching.NONE, // set once the engine is up: its default depends on the backend
                    ui,
                    line -> {
                        err.println(Instant.now().truncatedTo(ChronoUnit.MILLIS) + " " + line);
                        err.flush();
                    });
        });
        UsageError.of(() -> {
            SpeechServer.checkModels(parent.families(), config.models());
            return null;
        });
        ModelLoader loader = new ModelLoader(
                parent.families(), ModelStore.userCache(), m -> config.log().accept("model store: " + m));
        long budget = UsageError.of(() -> gpuMemoryBudget == null ? 0L : bytes("--gpu-memory-budget", gpuMemoryBudget));
        if (maxBatch != null) UsageError.of(() -> new Batching(maxBatch, budget));
        UsageError.of(() -> {
            if (ttsReplicas < 1 || ttsReplicas > MAX_TTS_REPLICAS)
                throw new IllegalArgumentException(
                        "--tts-replicas must be 1 to " + MAX_TTS_REPLICAS + ", got " + ttsReplicas);
            return null;
        });
        List<AudioEngine> engines = engines();
        List<AudioEngine> ttsEngines;
        try {
            ttsEngines = ttsEngines(engines);
        } catch (RuntimeException | Error e) {
            engines.forEach(AudioEngine::close);
            throw e;
        }
        List<AudioEngine> all = new java.util.ArrayList<>(engines);
        all.addAll(ttsEngines.subList(engines.size(), ttsEngines.size()));
        AudioEngine engine = engines.getFirst();
        SpeechServer server;
        try {
            ServerConfig batched = config.withBatching(batching(engine, budget));
            if (batched.batching().maxBatch() > 1)
                config.log()
                        .accept("batching ASR decoding: up to "
                                + batched.batching().maxBatch()
                                + " sequences a step"
                                + (budget > 0 ? ", caches within " + gpuMemoryBudget : "")
                                + "; " + batched.workers() + " requests at once per model"
                                + (engines.size() > 1 ? " and device" : ""));
            if (parent.globals().backend() == BackendType.BEST_AVAILABLE)
                config.log().accept("--backend " + engine.selectionNote());
            if (ttsReplicas > 1)
                config.log()
                        .accept("speech synthesis: " + ttsReplicas
                                + " replicas per device, each on an engine of its own");
            server = SpeechServer.start(batched, engines, ttsEngines, loader);
        } catch (SpeechServer.CannotListen e) {
            all.forEach(AudioEngine::close);
            err.println("error: " + e.getMessage()); // the reason and the option to change: nothing else to show
            err.flush();
            return ErrorReporter.EXIT_FAILURE;
        } catch (Exception | Error e) {
            all.forEach(AudioEngine::close);
            throw e;
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } finally {
                                all.forEach(AudioEngine::close);
                            }
                        },
                        "audioengine-serve-shutdown"));
        server.awaitClosed();
        return 0;
    }

    /** One engine per device of --device; a device that cannot be opened closes those already open. */
    private List<AudioEngine> engines() {
        List<AudioEngine> out = new java.util.ArrayList<>();
        try {
            for (int device : parent.globals().devices())
                out.add(dev.audioengine.cli.EngineFactory.builder(parent.globals(), parent.registry(), device)
                        .build());
        } catch (RuntimeException | Error e) {
            out.forEach(AudioEngine::close);
            throw e;
        }
        return out;
    }

    static final int MAX_TTS_REPLICAS = 16;

    /**
     * The engines speech synthesis models run on: {@code engines} (one per device) first, then --tts-replicas - 1 more
     * per device in the same order, so that the least-loaded choice (the first of equals) spreads requests over the
     * devices before it doubles up on one. An engine that cannot be opened closes the extra ones already open.
     */
    private List<AudioEngine> ttsEngines(List<AudioEngine> engines) {
        List<AudioEngine> out = new java.util.ArrayList<>(engines);
        try {
            for (int copy = 1; copy < ttsReplicas; copy++)
                for (int device : parent.globals().devices())
                    out.add(dev.audioengine.cli.EngineFactory.builder(parent.globals(), parent.registry(), device)
                            .build());
        } catch (RuntimeException | Error e) {
            out.subList(engines.size(), out.size()).forEach(AudioEngine::close);
            throw e;
        }
        return out;
    }

    /** --max-batch and --gpu-memory-budget, with the backend's default batch size. */
    private Batching batching(AudioEngine engine, long budget) {
        int n = maxBatch != null
                ? maxBatch
                : engine.device().kind() == dev.audioengine.api.spi.DeviceKind.CPU ? 1 : DEFAULT_GPU_BATCH;
        return new Batching(n, budget);
    }

    static final int DEFAULT_GPU_BATCH = 64;

    /** "2G", "512M", "1.5g", "1000000" (bytes) → bytes. */
    public static long bytes(String option, String value) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                        "(?i)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kmgt]?)i?b?\\s*")
                .matcher(value);
        if (!m.matches())
            throw new IllegalArgumentException(
                    option + " wants a size such as 2G, 512M or 1048576 (bytes), got '" + value + "'");
        int shift = switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        double b = Double.parseDouble(m.group(1)) * (1L << shift);
        if (!(b >= 1 && b < Long.MAX_VALUE))
            throw new IllegalArgumentException(option + " must be positive, got '" + value + "'");
        return (long) b;
    }

    private static Duration seconds(String option, double s) {
        if (!(s >= 0 && s <= 86_400)) throw new IllegalArgumentException(option + " must be in [0, 86400], got " + s);
        return Duration.ofMillis(Math.round(s * 1000));
    }
}
