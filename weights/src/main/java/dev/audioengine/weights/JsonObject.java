package dev.audioengine.weights;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A parsed JSON object: members in file order, each with the byte position of its value (for messages). */
final class JsonObject {
    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Map<String, Integer> positions = new LinkedHashMap<>();

    /** Adds a member; false when the key is already present. */
    boolean put(String key, Object value, int position) {
        if (values.containsKey(key)) return false;
        values.put(key, value);
        positions.put(key, position);
        return true;
    }

    boolean has(String key) { return values.containsKey(key); }

    /** The member's value: a JsonObject, List, String, Long, Double, Boolean, or null for JSON null. */
    Object get(String key) { return values.get(key); }

    /** Byte position of the member's value within the parsed text. */
    int positionOf(String key) { return positions.get(key); }

    Set<String> keys() { return Collections.unmodifiableSet(values.keySet()); }
}
