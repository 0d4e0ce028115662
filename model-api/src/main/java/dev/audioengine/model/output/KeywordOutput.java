package dev.audioengine.model.output;

import dev.audioengine.model.task.KeywordDetection;
import dev.audioengine.model.task.KeywordOptions;
import java.util.List;

/**
 * The JSON of wake-word detections, one definition for the CLI's {@code --task kws --json} and the server's
 * {@code POST /v1/audio/keywords}, so that both name and round the fields alike.
 */
public final class KeywordOutput {
    private KeywordOutput() {}

    /**
     * Writes one detection's fields into the object open in {@code w}: {@code keyword}, {@code time} (seconds from the
     * start of the audio, rounded to the millisecond), {@code frame} (the 80 ms score frame) and {@code score}
     * (rounded to 1e-6).
     *
     * @param w a writer with an object open
     * @param d the detection to write
     */
    public static void detection(JsonWriter w, KeywordDetection d) {
        w.name("keyword")
                .value(d.keyword())
                .name("time")
                .number(Math.round(d.seconds() * 1000) / 1000.0)
                .name("frame")
                .value(d.frame())
                .name("score")
                .number(Math.round(d.score() * 1e6) / 1e6);
    }

    /**
     * Writes the settings and the detections of one input into the object open in {@code w}: {@code threshold},
     * {@code refractory_seconds}, {@code keywords} (the keywords listened for) and {@code detections} (an array of
     * {@link #detection} objects, in time order as given).
     *
     * @param w          a writer with an object open
     * @param options    the threshold and refractory period the detections were made with
     * @param keywords   the keywords listened for
     * @param detections what was heard
     */
    public static void detections(
            JsonWriter w, KeywordOptions options, List<String> keywords, List<KeywordDetection> detections) {
        w.name("threshold")
                .number(options.threshold())
                .name("refractory_seconds")
                .number(options.refractorySeconds())
                .name("keywords")
                .beginArray();
        for (String k : keywords) w.value(k);
        w.endArray().name("detections").beginArray();
        for (KeywordDetection d : detections) {
            w.beginObject();
            detection(w, d);
            w.endObject();
        }
        w.endArray();
    }
}
