package dev.audioengine.cli.command;

import dev.audioengine.cli.CliContext;
import dev.audioengine.cli.UsageError;
import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.ModelFamily;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import dev.audioengine.model.ModelVariant;
import dev.audioengine.model.Task;
import dev.audioengine.model.output.JsonWriter;
import dev.audioengine.model.store.ModelStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code audioengine models list|pull|clean}: the installed model families, their variants, and the model cache. */
@Command(
        name = "models",
        mixinStandardHelpOptions = true,
        description = {
            "Model families and the model cache ($AUDIOENGINE_CACHE, $XDG_CACHE_HOME/audioengine or $HOME/.cache/audioengine).",
            ""
        },
        subcommands = {ModelsCommand.ListModels.class, ModelsCommand.Pull.class, ModelsCommand.Clean.class})
public final class ModelsCommand implements Runnable {
    @ParentCommand
    CliContext parent;

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = {
                "Every installed family with its variants: task, size, licence, and whether it is in the cache.",
                ""
            })
    static final class ListModels implements Runnable {
        @ParentCommand
        private ModelsCommand models;

        @Spec
        private CommandSpec spec;

        @Option(
                names = "--json",
                description = "One JSON document: the cache folder and every family with its variants and files.")
        private boolean json;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            FamilyRegistry registry = models.parent.families();
            ModelStore store = ModelStore.userCache();
            if (json) out.println(json(registry, store));
            else table(out, registry, store);
            out.flush();
        }

        private static void table(PrintWriter out, FamilyRegistry registry, ModelStore store) {
            int licence = registry.families().stream() // wide enough for CC-BY-NC-SA-4.0 and the like
                    .flatMap(f -> f.variants().stream())
                    .mapToInt(v -> String.valueOf(v.licence()).length())
                    .max()
                    .orElse(0);
            int model = registry.families().stream() // wide enough for ggml-large-v3-turbo-q5_0
                    .flatMap(f -> f.variants().stream())
                    .mapToInt(v -> v.name().length() + 1)
                    .max()
                    .orElse(0);
            String fmt = "%-14s %-" + Math.max(16, model) + "s %-5s %9s  %-" + Math.max(10, licence) + "s %-7s %s%n";
            out.printf(Locale.ROOT, fmt, "FAMILY", "MODEL", "TASK", "SIZE", "LICENCE", "CACHED", "DESCRIPTION");
            for (ModelFamily f : registry.families()) {
                for (ModelVariant v : f.variants()) {
                    String name = v.name() + (f.defaultVariant(v.task()) == v && f.isDefaultFor(v.task()) ? "*" : "");
                    out.printf(
                            Locale.ROOT,
                            fmt,
                            f.name(),
                            name,
                            v.task().cliName(),
                            size(store, v),
                            v.licence(),
                            cached(store, v) ? "yes" : "no",
                            v.description());
                }
            }
            out.println();
            out.println("* the default model of its task. Cache: " + store.directory());
            if (registry.families().stream()
                    .flatMap(f -> f.variants().stream())
                    .anyMatch(v -> v.files().stream().anyMatch(ModelFile::pinnedByHub)))
                out.println("SIZE hub: fetched from the Hugging Face hub"
                        + store.hubEndpoint().map(u -> " (" + u + ")").orElse("")
                        + ", which reports its size and sha256 at the pull.");
            if (registry.families().isEmpty())
                out.println("No model family is installed: a family jar belongs next to the backend jars.");
        }

        private static String json(FamilyRegistry registry, ModelStore store) {
            JsonWriter w = new JsonWriter()
                    .beginObject()
                    .name("cache")
                    .value(store.directory().toString())
                    .name("families")
                    .beginArray();
            for (ModelFamily f : registry.families()) {
                w.beginObject()
                        .name("name")
                        .value(f.name())
                        .name("description")
                        .value(f.description())
                        .name("tasks")
                        .beginArray();
                for (Task t : f.tasks().stream().sorted().toList()) w.value(t.cliName());
                w.endArray().name("uses").beginArray();
                f.uses().stream().map(Enum::name).sorted().forEach(w::value);
                w.endArray().name("variants").beginArray();
                for (ModelVariant v : f.variants()) {
                    w.beginObject().name("name").value(v.name()).name("aliases").beginArray();
                    v.aliases().forEach(w::value);
                    w.endArray()
                            .name("task")
                            .value(v.task().cliName())
                            .name("default")
                            .value(f.isDefaultFor(v.task()) && f.defaultVariant(v.task()) == v)
                            .name("description")
                            .value(v.description())
                            .name("licence")
                            .value(v.licence())
                            .name("bytes")
                            .value(v.bytes())
                            .name("cached")
                            .value(cached(store, v))
                            .name("files")
                            .beginArray();
                    for (ModelFile file : v.files()) {
                        w.beginObject()
                                .name("name")
                                .value(file.name())
                                .name("sha256")
                                .value(store.expectedSha256(file).orElse(null))
                                .name("pinned_by_hub")
                                .value(file.pinnedByHub())
                                .name("bytes")
                                .value(file.bytes())
                                .name("sources")
                                .beginArray();
                        for (ModelSource s : file.sources()) w.value(s.describe());
                        w.endArray().endObject();
                    }
                    w.endArray().endObject();
                }
                w.endArray().endObject();
            }
            return w.endArray().endObject().toString();
        }

        /**
         * Present with the pinned size (for a file pinned by the hub, with the pin of its pull); the hash is checked
         * when the model is loaded or pulled.
         */
        private static boolean cached(ModelStore store, ModelVariant v) {
            try {
                for (ModelFile f : v.files()) {
                    var p = store.path(f);
                    long bytes = f.bytes();
                    if (f.pinnedByHub()) {
                        var pin = store.hubPin(f);
                        if (pin.isEmpty()) return false;
                        bytes = pin.get().bytes();
                    }
                    if (!Files.isRegularFile(p) || (bytes > 0 && Files.size(p) != bytes)) return false;
                }
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        /**
         * The variant's size; for files pinned by the hub, the size the hub reported at their pull, and "hub" (the
         * size is asked of the Hugging Face hub at the pull) before it.
         */
        private static String size(ModelStore store, ModelVariant v) {
            long bytes = 0;
            for (ModelFile f : v.files()) {
                if (!f.pinnedByHub()) bytes += f.bytes();
                else {
                    var pin = store.hubPin(f);
                    if (pin.isEmpty()) return "hub";
                    bytes += pin.get().bytes();
                }
            }
            return megabytes(bytes);
        }

        private static String megabytes(long bytes) {
            return bytes == 0 ? "?" : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
        }
    }

    @Command(
            name = "pull",
            mixinStandardHelpOptions = true,
            description = {
                "Fetch models into the cache and verify their sha256: a model name pulls that model, a family name that is "
                        + "not also a model name pulls all its models.",
                ""
            })
    static final class Pull implements Runnable {
        @ParentCommand
        private ModelsCommand models;

        @Spec
        private CommandSpec spec;

        @Parameters(
                arity = "1..*",
                paramLabel = "NAME",
                description = "Model or family names, as 'audioengine models list' shows them.")
        private List<String> names;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut(),
                    err = spec.commandLine().getErr();
            FamilyRegistry registry = models.parent.families();
            Set<ModelVariant> wanted = new LinkedHashSet<>();
            List<String> unknown = new ArrayList<>();
            for (String name : names) {
                var named = registry.variant(name);
                if (named.isPresent()) {
                    wanted.add(named.get().variant());
                    continue;
                }
                ModelFamily family;
                try {
                    family = registry.family(name);
                } catch (IllegalArgumentException e) {
                    unknown.add(name);
                    continue;
                }
                // a family of hub-fetched sizes (whisper: tiny to large, each in two layouts) is tens of GB in all
                if (family.variants().stream().anyMatch(v -> v.files().stream().anyMatch(ModelFile::pinnedByHub)))
                    throw new UsageError(
                            family.name() + " has " + family.variants().size() + " models fetched from the"
                                    + " Hugging Face hub, tens of GB together; name the ones to pull: "
                                    + String.join(
                                            ", ",
                                            family.variants().stream()
                                                    .map(ModelVariant::name)
                                                    .toList()));
                wanted.addAll(family.variants());
            }
            if (!unknown.isEmpty()) {
                throw new UsageError("unknown model " + String.join(", ", unknown) + "; models: "
                        + String.join(", ", registry.variantNames()) + "; families: "
                        + String.join(
                                ", ",
                                registry.families().stream()
                                        .map(ModelFamily::name)
                                        .toList()));
            }
            ModelStore store = ModelStore.userCache();
            try {
                for (ModelVariant v : wanted) {
                    boolean had = store.has(v);
                    String note = dev.audioengine.model.ModelLoader.licenceNote(v);
                    if (!had && !note.isEmpty()) {
                        err.println("audioengine: pulling " + v.name() + note.replaceFirst("^;", ""));
                        err.flush();
                    }
                    var files = store.pull(v, msg -> {
                        err.println("audioengine: " + msg);
                        err.flush();
                    });
                    for (ModelFile f : v.files()) {
                        var pin = store.hubPin(f);
                        out.println((had ? "cached   " : "pulled   ") + v.name() + "  " + files.get(f.name())
                                + "  sha256 " + store.expectedSha256(f).orElse("?")
                                + pin.map(p -> "  (as the hub reports it: " + p.repo() + " at " + p.commit() + ")")
                                        .orElse(""));
                    }
                }
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
    }

    /**
     * Removes what the engine derived from the model files and its own jars: the prepared weights ({@code prepared/},
     * rebuilt on the next load), the stamps of verified files ({@code .verified/}, the next check hashes again) and
     * the JVM's AOT caches of one-shot jobs and Spark's start ({@code aot/}, {@code spark-aot/}: 20-180 MB each, one
     * per build, made again by the next run). The model files themselves stay unless {@code --all}.
     */
    @Command(
            name = "clean",
            mixinStandardHelpOptions = true,
            description = {
                "Remove the prepared weights (the converted copies one-shot runs map instead of converting again), "
                        + "the JVM's AOT caches of one-shot jobs and Spark runs, and the verification stamps; they are "
                        + "rebuilt on the next run. --all empties the whole cache: model files and compiled GPU kernels "
                        + "too.",
                ""
            })
    static final class Clean implements Runnable {
        @Spec
        private CommandSpec spec;

        @Option(
                names = "--all",
                description = "Empty the whole cache folder: model files (the next use pulls them again) and "
                        + "compiled GPU kernels too.")
        private boolean all;

        @Override
        public void run() {
            PrintWriter out = spec.commandLine().getOut();
            java.nio.file.Path cache = ModelStore.userCache().directory();
            try {
                long freed = 0;
                int files = 0;
                List<java.nio.file.Path> targets = new ArrayList<>(List.of(
                        cache.resolve("prepared"),
                        cache.resolve(".verified"),
                        cache.resolve("aot"),
                        cache.resolve("spark-aot")));
                if (all && Files.isDirectory(cache)) {
                    try (var entries = Files.list(cache)) {
                        for (java.nio.file.Path p : entries.toList()) if (!targets.contains(p)) targets.add(p);
                    }
                }
                for (java.nio.file.Path target : targets) {
                    if (!Files.exists(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) continue;
                    try (var walk = Files.walk(target)) {
                        for (java.nio.file.Path p :
                                walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                            if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                                freed += Files.size(p);
                                files++;
                            }
                            Files.delete(p);
                        }
                    }
                }
                out.printf(
                        Locale.ROOT,
                        "removed %d file(s), %.1f MB, from %s%s%n",
                        files,
                        freed / 1e6,
                        cache,
                        all ? "" : " (prepared weights, AOT caches and verification stamps; the model files stay)");
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("could not clean " + cache + ": " + e.getMessage(), e);
            }
        }
    }
}
