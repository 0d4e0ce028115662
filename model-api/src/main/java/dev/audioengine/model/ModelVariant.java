package dev.audioengine.model;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A named, pinned model of a family ({@code silero_vad}, {@code silero_vad_v5}, later {@code moonshine-tiny}): what
 * {@code --model NAME} and {@code models pull NAME} accept.
 *
 * @param name        the canonical name
 * @param aliases     other names accepted for it ({@code silero_vad_v6})
 * @param task        the task it serves
 * @param description one line for {@code models list}
 * @param files       every file it needs, with sources and sha256
 * @param licence     the licence of the weights (SPDX id where there is one)
 */
public record ModelVariant(
        String name, List<String> aliases, Task task, String description, List<ModelFile> files, String licence) {
    public ModelVariant {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(task, "task");
        aliases = List.copyOf(aliases);
        files = List.copyOf(files);
        if (files.isEmpty()) throw new IllegalArgumentException("variant " + name + " has no files");
    }

    /** Whether {@code candidate} names this variant (case-insensitive, aliases included). */
    public boolean answersTo(String candidate) {
        String c = candidate.toLowerCase(Locale.ROOT);
        return name.toLowerCase(Locale.ROOT).equals(c)
                || aliases.stream().anyMatch(a -> a.toLowerCase(Locale.ROOT).equals(c));
    }

    /** Total size of its files in bytes. */
    public long bytes() {
        return files.stream().mapToLong(ModelFile::bytes).sum();
    }
}
