package dev.audioengine.weights.json;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A parsed JSON object: an unmodifiable Map of its members in file order, each with the byte offset of its
 * value (safetensors errors point at the tensor entry they are about).
 */
public final class JsonObject extends AbstractMap<String, Object> {
    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Map<String, Long> positions = new LinkedHashMap<>();

    JsonObject() {}

    /** Adds a member; false when the key is already present. */
    boolean put(String key, Object value, long position) {
        if (values.containsKey(key)) return false;
        values.put(key, value);
        positions.put(key, position);
        return true;
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    /** The member's value: a JsonObject, List, String, Long, Double, Boolean, or null for JSON null. */
    @Override
    public Object get(Object key) {
        return values.get(key);
    }

    /** Byte offset of the member's value within the parsed text. */
    public long positionOf(String key) {
        return positions.get(key);
    }

    public Set<String> keys() {
        return Collections.unmodifiableSet(values.keySet());
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return Collections.unmodifiableMap(values).entrySet();
    }
}
