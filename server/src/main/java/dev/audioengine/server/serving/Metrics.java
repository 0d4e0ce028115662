package dev.audioengine.server.serving;

import dev.audioengine.model.task.BatchStats;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's counters, rendered in Prometheus' text exposition format (version 0.0.4) by {@link #render}: requests by
 * endpoint and status, latency histograms by endpoint, requests in flight, each model's queue depth, running requests
 * and load state, audio seconds processed and the model time they took (their ratio is the real-time factor).
 * Endpoint labels are the fixed route names, never a request's own path, so a scan of random URLs cannot grow them.
 */
public final class Metrics {
    /**
     * Each model's requests waiting for a worker: the gauge a HorizontalPodAutoscaler scales on
     * (deploy/kubernetes/hpa.yaml, checked against this name by DeployManifestsTest).
     */
    public static final String QUEUE_DEPTH = "audioengine_queue_depth";

    /** Latency buckets in seconds: from a health check to a long upload. */
    private static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120};

    private final Map<String, LongAdder> requests = new ConcurrentSkipListMap<>(); // "endpoint\0status"
    private final Map<String, Histogram> latency = new ConcurrentSkipListMap<>();
    private final Map<String, DoubleAdder> audioSeconds = new ConcurrentHashMap<>(),
            modelSeconds = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger realtimeSessions = new AtomicInteger();

    /** A live transcription session opened (+1) or ended (-1). */
    public void realtimeSession(int change) {
        realtimeSessions.addAndGet(change);
    }

    /** Live transcription sessions open now. */
    public int realtimeSessions() {
        return realtimeSessions.get();
    }

    public void started() {
        inFlight.incrementAndGet();
    }

    public void finished(String endpoint, int status, double seconds) {
        inFlight.decrementAndGet();
        requests.computeIfAbsent(endpoint + '\0' + status, k -> new LongAdder()).increment();
        latency.computeIfAbsent(endpoint, k -> new Histogram()).observe(seconds);
    }

    /** A request's audio went through {@code model} in {@code seconds} of model time. */
    public void processed(String model, double audio, double seconds) {
        audioSeconds.computeIfAbsent(model, k -> new DoubleAdder()).add(audio);
        modelSeconds.computeIfAbsent(model, k -> new DoubleAdder()).add(seconds);
    }

    public int inFlight() {
        return inFlight.get();
    }

    public String render(List<ServedModel> models) {
        return render(models, "", java.util.Optional.empty());
    }

    /** {@code memory}: the engine's device memory where its backend reports it (GPUs), named by {@code device}. */
    public String render(
            List<ServedModel> models, String device, java.util.Optional<dev.audioengine.api.spi.DeviceMemory> memory) {
        StringBuilder out = new StringBuilder();
        head(out, "audioengine_requests_total", "counter", "HTTP requests answered, by endpoint and status");
        requests.forEach((key, n) -> {
            int cut = key.indexOf('\0');
            line(
                    out,
                    "audioengine_requests_total",
                    "endpoint=\"" + key.substring(0, cut) + "\",status=\"" + key.substring(cut + 1) + "\"",
                    n.sum());
        });
        head(
                out,
                "audioengine_request_duration_seconds",
                "histogram",
                "time from the request's arrival to the end of its answer");
        latency.forEach((endpoint, h) ->
                h.render(out, "audioengine_request_duration_seconds", "endpoint=\"" + endpoint + "\""));
        head(out, "audioengine_requests_in_flight", "gauge", "requests being answered now");
        line(out, "audioengine_requests_in_flight", "", inFlight.get());
        head(out, "audioengine_realtime_sessions", "gauge", "live transcription sessions open (GET /v1/realtime)");
        line(out, "audioengine_realtime_sessions", "", realtimeSessions.get());
        head(out, QUEUE_DEPTH, "gauge", "requests waiting for a model worker");
        for (ServedModel m : models) line(out, QUEUE_DEPTH, model(m), m.queued());
        head(out, "audioengine_model_requests_running", "gauge", "requests a model works on now");
        for (ServedModel m : models) line(out, "audioengine_model_requests_running", model(m), m.running());
        batches(out, models);
        head(
                out,
                "audioengine_replica_requests_total",
                "counter",
                "requests sent to each copy of a model (--device with several devices, --tts-replicas: to the least loaded)");
        for (ServedModel m : models)
            for (ServedModel.Replica r : m.replicas())
                line(
                        out,
                        "audioengine_replica_requests_total",
                        model(m) + ",replica=\"" + r.index() + "\"",
                        r.requests());
        head(out, "audioengine_model_loaded", "gauge", "1 when the model is loaded");
        for (ServedModel m : models) line(out, "audioengine_model_loaded", model(m), m.isLoaded() ? 1 : 0);
        head(out, "audioengine_audio_seconds_total", "counter", "seconds of audio processed");
        for (ServedModel m : models) line(out, "audioengine_audio_seconds_total", model(m), sum(audioSeconds, m.id()));
        head(
                out,
                "audioengine_model_seconds_total",
                "counter",
                "wall seconds of model work (decoding, resampling, inference) on that audio");
        for (ServedModel m : models) line(out, "audioengine_model_seconds_total", model(m), sum(modelSeconds, m.id()));
        head(
                out,
                "audioengine_realtime_factor",
                "gauge",
                "audio seconds per second of model work since start (rate() of the two counters gives it over a window)");
        for (ServedModel m : models) {
            double work = sum(modelSeconds, m.id());
            line(out, "audioengine_realtime_factor", model(m), work > 0 ? sum(audioSeconds, m.id()) / work : 0);
        }
        head(
                out,
                "audioengine_device_memory_bytes",
                "gauge",
                "the device's memory as its driver reports it, all processes (no samples on the CPU)");
        memory.ifPresent(mem -> {
            String d = "device=\"" + device.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            line(out, "audioengine_device_memory_bytes", d + ",kind=\"used\"", mem.usedBytes());
            line(out, "audioengine_device_memory_bytes", d + ",kind=\"total\"", mem.totalBytes());
        });
        return out.toString();
    }

    /** Batched decoding (ASR models that batch): slots, sequences in flight and waiting, steps and their occupancy. */
    private static void batches(StringBuilder out, List<ServedModel> models) {
        List<ServedModel> batching =
                models.stream().filter(m -> m.batchStats().slots() > 0).toList();
        head(
                out,
                "audioengine_batch_slots",
                "gauge",
                "sequences one decoder step can hold (--max-batch, or what the memory budget pays for)");
        for (ServedModel m : batching)
            line(out, "audioengine_batch_slots", model(m), m.batchStats().slots());
        head(out, "audioengine_batch_active", "gauge", "sequences in the batch now");
        for (ServedModel m : batching)
            line(out, "audioengine_batch_active", model(m), m.batchStats().active());
        head(out, "audioengine_batch_queued", "gauge", "windows waiting for a batch slot now");
        for (ServedModel m : batching)
            line(out, "audioengine_batch_queued", model(m), m.batchStats().queued());
        head(out, "audioengine_batch_steps_total", "counter", "batched decoder steps run");
        for (ServedModel m : batching)
            line(out, "audioengine_batch_steps_total", model(m), m.batchStats().steps());
        head(
                out,
                "audioengine_batch_sequence_steps_total",
                "counter",
                "tokens decoded by batched steps (over steps_total: the mean batch occupancy)");
        for (ServedModel m : batching)
            line(
                    out,
                    "audioengine_batch_sequence_steps_total",
                    model(m),
                    m.batchStats().sequenceSteps());
        head(out, "audioengine_batch_occupancy", "gauge", "sequences per decoder step since start");
        for (ServedModel m : batching)
            line(out, "audioengine_batch_occupancy", model(m), m.batchStats().occupancy());
        head(out, "audioengine_batch_windows_total", "counter", "windows decoded, in the batch or alone");
        for (ServedModel m : batching)
            line(
                    out,
                    "audioengine_batch_windows_total",
                    model(m),
                    m.batchStats().windows());
        head(
                out,
                "audioengine_batch_lone_windows_total",
                "counter",
                "windows that found the batch idle and were decoded alone, as without batching");
        for (ServedModel m : batching)
            line(
                    out,
                    "audioengine_batch_lone_windows_total",
                    model(m),
                    m.batchStats().loneWindows());
        head(
                out,
                "audioengine_batch_encoder_runs_total",
                "counter",
                "runs of the batched encoder (the windows that joined between two steps, encoded together)");
        for (ServedModel m : batching)
            line(
                    out,
                    "audioengine_batch_encoder_runs_total",
                    model(m),
                    m.batchStats().encoderRuns());
        head(
                out,
                "audioengine_batch_stage_seconds_total",
                "counter",
                "seconds in each stage of batched decoding: compile (encoders for new window lengths, part of encode),"
                        + " encode, step, lock_wait (for the device), lone (windows decoded alone)");
        for (ServedModel m : batching) {
            BatchStats.Stages t = m.batchStats().stages();
            line(out, "audioengine_batch_stage_seconds_total", stage(m, "compile"), t.compile());
            line(out, "audioengine_batch_stage_seconds_total", stage(m, "encode"), t.encode());
            line(out, "audioengine_batch_stage_seconds_total", stage(m, "step"), t.step());
            line(out, "audioengine_batch_stage_seconds_total", stage(m, "lock_wait"), t.lockWait());
            line(out, "audioengine_batch_stage_seconds_total", stage(m, "lone"), t.lone());
        }
    }

    private static String stage(ServedModel m, String stage) {
        return model(m) + ",stage=\"" + stage + "\"";
    }

    private static String model(ServedModel m) {
        return "model=\"" + m.id() + "\"";
    }

    private static double sum(Map<String, DoubleAdder> m, String key) {
        DoubleAdder a = m.get(key);
        return a == null ? 0 : a.sum();
    }

    private static void head(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void line(StringBuilder out, String name, String labels, double value) {
        out.append(name);
        if (!labels.isEmpty()) out.append('{').append(labels).append('}');
        out.append(' ').append(number(value)).append('\n');
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /** Cumulative buckets, a sum and a count. */
    private static final class Histogram {
        private final LongAdder[] counts = new LongAdder[BUCKETS.length];
        private final LongAdder count = new LongAdder();
        private final DoubleAdder sum = new DoubleAdder();

        Histogram() {
            for (int i = 0; i < counts.length; i++) counts[i] = new LongAdder();
        }

        void observe(double seconds) {
            for (int i = 0; i < BUCKETS.length; i++) {
                if (seconds <= BUCKETS[i]) {
                    counts[i].increment();
                    break;
                }
            }
            count.increment();
            sum.add(seconds);
        }

        void render(StringBuilder out, String name, String labels) {
            long cumulative = 0;
            for (int i = 0; i < BUCKETS.length; i++) {
                cumulative += counts[i].sum();
                line(out, name + "_bucket", labels + ",le=\"" + number(BUCKETS[i]) + "\"", cumulative);
            }
            line(out, name + "_bucket", labels + ",le=\"+Inf\"", count.sum());
            line(out, name + "_sum", labels, sum.sum());
            line(out, name + "_count", labels, count.sum());
        }
    }
}
