package dev.audioengine.blocks;

import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.testkit.RandomTensors;
import dev.audioengine.blocks.weights.WeightStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Random F32 weights under PyTorch names, written as a safetensors file and opened as a WeightStore. */
final class RandomCheckpoint {
    private final RandomTensors random;
    private final Map<String, long[]> shapes = new LinkedHashMap<>();
    private final Map<String, float[]> values = new LinkedHashMap<>();

    RandomCheckpoint(RandomTensors random) {
        this.random = random;
    }

    /** Uniform in ±1/√fan-in, as torch initialises Linear and Conv (fan-in = the product of all but the first axis). */
    RandomCheckpoint weight(String name, long... shape) {
        long fanIn = 1;
        for (int i = 1; i < shape.length; i++) fanIn *= shape[i];
        float b = (float) (1 / Math.sqrt(shape.length > 1 ? fanIn : shape[0]));
        return put(name, shape, random.uniform(count(shape), -b, b));
    }

    /** Uniform in [lo, hi). */
    RandomCheckpoint uniform(String name, float lo, float hi, long... shape) {
        return put(name, shape, random.uniform(count(shape), lo, hi));
    }

    float[] values(String name) {
        return values.get(name);
    }

    private RandomCheckpoint put(String name, long[] shape, float[] v) {
        shapes.put(name, shape.clone());
        values.put(name, v);
        return this;
    }

    WeightStore open(Path dir, DType weightType) {
        StringBuilder h = new StringBuilder("{");
        long at = 0;
        for (var e : shapes.entrySet()) {
            long bytes = 4L * values.get(e.getKey()).length;
            if (h.length() > 1) h.append(',');
            h.append('"')
                    .append(e.getKey())
                    .append("\":{\"dtype\":\"F32\",\"shape\":")
                    .append(java.util.Arrays.toString(e.getValue()).replace(" ", ""))
                    .append(",\"data_offsets\":[")
                    .append(at)
                    .append(',')
                    .append(at + bytes)
                    .append("]}");
            at += bytes;
        }
        byte[] header = h.append('}').toString().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b =
                ByteBuffer.allocate(Math.toIntExact(8 + header.length + at)).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(header.length).put(header);
        for (float[] v : values.values()) for (float f : v) b.putFloat(f);
        try {
            Path file = Files.createTempFile(dir, "weights", ".safetensors");
            Files.write(file, b.array());
            return WeightStore.open(file, weightType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int count(long[] shape) {
        long n = 1;
        for (long d : shape) n *= d;
        return Math.toIntExact(n);
    }
}
