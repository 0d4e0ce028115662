package dev.audioengine.cli.command;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.cli.CliContext;
import dev.audioengine.cli.task.ModelChoice;
import dev.audioengine.model.ModelLoader;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.store.ModelStore;
import dev.audioengine.model.task.SpeechSynthesizer;
import dev.audioengine.model.task.SpeechSynthesizer.Voice;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code audioengine voices}: the voices of a speech synthesis model, what {@code --task tts --voice} takes. */
@Command(
        name = "voices",
        mixinStandardHelpOptions = true,
        description = {
            "The voices of a speech synthesis model (--task tts --voice NAME): name, language (BCP 47), gender. "
                    + "The model is loaded (and pulled on first use) to ask it.",
            ""
        })
public final class VoicesCommand implements Runnable {
    @ParentCommand
    private CliContext parent;

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "A JSON array of {name, language, gender}.")
    private boolean json;

    @Option(
            names = "--family",
            paramLabel = "NAME",
            description = "As for --task tts. Default: the tts task's default family.")
    private String family;

    @Option(
            names = "--model",
            paramLabel = "NAME|PATH",
            description = "As for --task tts. Default: the family's default model.")
    private String model;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        try {
            ModelLoader loader = new ModelLoader(parent.families(), ModelStore.userCache(), msg -> {
                err.println("audioengine: " + msg);
                err.flush();
            });
            ModelLoader.Choice choice = ModelChoice.choose(loader, Task.TTS, family, model);
            try (AudioEngine engine = parent.engineBuilder().build();
                    SpeechSynthesizer tts = (SpeechSynthesizer) loader.load(engine, choice)) {
                out.print(json ? json(tts.voices()) : table(tts.voices()));
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    static String json(List<Voice> voices) {
        JsonWriter w = new JsonWriter().beginArray();
        for (Voice v : voices)
            w.beginObject()
                    .name("name")
                    .value(v.name())
                    .name("language")
                    .value(v.language())
                    .name("gender")
                    .value(v.gender())
                    .endObject();
        return w.endArray() + "\n";
    }

    /** Columns as wide as their longest entry; a gender the model does not know shows as "-". */
    static String table(List<Voice> voices) {
        int name = "NAME".length(), lang = "LANGUAGE".length();
        for (Voice v : voices) {
            name = Math.max(name, v.name().length());
            lang = Math.max(lang, v.language().length());
        }
        String row = "%-" + name + "s  %-" + lang + "s  %s\n";
        StringBuilder out = new StringBuilder(String.format(row, "NAME", "LANGUAGE", "GENDER"));
        for (Voice v : voices)
            out.append(String.format(row, v.name(), v.language(), v.gender().isEmpty() ? "-" : v.gender()));
        return out.toString();
    }
}
