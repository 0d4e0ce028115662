package dev.audioengine.model.output;

import java.util.List;
import java.util.Map;

/** JSON (RFC 8259): {"audio": ..., properties..., "segments": [{"start", "end", "start_sample", "end_sample", "label"?, "text"?}]}. */
final class JsonSegments {
    private JsonSegments() {}

    static String render(String recording, Map<String, ?> properties, List<Segment> segments) {
        JsonWriter w = new JsonWriter().beginObject().name("audio").value(recording);
        for (Map.Entry<String, ?> e : properties.entrySet()) value(w.name(e.getKey()), e.getValue());
        w.name("segments").beginArray();
        for (Segment s : segments) {
            w.beginObject()
                    .name("start")
                    .number(s.startSeconds())
                    .name("end")
                    .number(s.endSeconds())
                    .name("start_sample")
                    .value(s.startSample())
                    .name("end_sample")
                    .value(s.endSample());
            if (s.label() != null) w.name("label").value(s.label());
            if (s.text() != null) w.name("text").value(s.text());
            w.endObject();
        }
        return w.endArray().endObject() + "\n";
    }

    private static void value(JsonWriter w, Object v) {
        switch (v) {
            case null -> w.value((String) null);
            case String s -> w.value(s);
            case Boolean b -> w.value(b);
            case Integer n -> w.value(n);
            case Long n -> w.value(n);
            case Number n -> {
                if (Double.isFinite(n.doubleValue())) w.number(n.doubleValue());
                else w.value((String) null); // JSON has no NaN or infinity: an unlimited option is null
            }
            default ->
                throw new IllegalArgumentException("a JSON property must be a String, Number, Boolean or null, got "
                        + v.getClass().getName());
        }
    }
}
