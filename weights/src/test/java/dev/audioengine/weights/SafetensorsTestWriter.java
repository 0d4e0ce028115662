package dev.audioengine.weights;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes safetensors files for tests, as the format's spec lays them out: u64 header length,
 * JSON header padded with spaces to a multiple of 8, tensor bytes back to back.
 */
final class SafetensorsTestWriter {
    private record Tensor(String name, String dtype, long[] shape, byte[] data) {}

    private final List<Tensor> tensors = new ArrayList<>();
    private final Map<String, String> metadata = new LinkedHashMap<>();

    SafetensorsTestWriter add(String name, String dtype, long[] shape, byte[] data) {
        tensors.add(new Tensor(name, dtype, shape.clone(), data));
        return this;
    }

    SafetensorsTestWriter metadata(String key, String value) {
        metadata.put(key, value);
        return this;
    }

    byte[] toBytes() {
        StringBuilder h = new StringBuilder("{");
        if (!metadata.isEmpty()) {
            h.append("\"__metadata__\":{");
            String sep = "";
            for (Map.Entry<String, String> e : metadata.entrySet()) {
                h.append(sep).append(quote(e.getKey())).append(':').append(quote(e.getValue()));
                sep = ",";
            }
            h.append('}');
        }
        long offset = 0;
        for (Tensor t : tensors) {
            if (h.length() > 1) h.append(',');
            h.append(quote(t.name()))
                    .append(":{\"dtype\":")
                    .append(quote(t.dtype()))
                    .append(",\"shape\":[");
            for (int i = 0; i < t.shape().length; i++)
                h.append(i > 0 ? "," : "").append(t.shape()[i]);
            h.append("],\"data_offsets\":[")
                    .append(offset)
                    .append(',')
                    .append(offset + t.data().length)
                    .append("]}");
            offset += t.data().length;
        }
        h.append('}');
        while (h.toString().getBytes(StandardCharsets.UTF_8).length % 8 != 0) h.append(' ');
        LittleEndianBytes out = new LittleEndianBytes();
        out.bytes(raw(h.toString(), new byte[0]));
        for (Tensor t : tensors) out.bytes(t.data());
        return out.toByteArray();
    }

    /** A file with exactly this header text and data section. */
    static byte[] raw(String header, byte[] data) {
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        return new LittleEndianBytes().u64(h.length).bytes(h).bytes(data).toByteArray();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }
}
