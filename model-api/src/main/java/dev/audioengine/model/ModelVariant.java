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
    /**
     * Copies the lists and checks the variant has files.
     *
     * @param name the canonical name; not null
     * @param aliases other names accepted for it; copied, may be empty
     * @param task the task it serves; not null
     * @param description one line for {@code models list}
     * @param files every file it needs, at least one; copied. The first is the one {@link ModelLocation#path()}
     *     points at
     * @param licence the licence of the weights
     * @throws IllegalArgumentException if there are no files
     * @throws NullPointerException if name, task, aliases or files is null
     */
    public ModelVariant {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(task, "task");
        aliases = List.copyOf(aliases);
        files = List.copyOf(files);
        if (files.isEmpty()) throw new IllegalArgumentException("variant " + name + " has no files");
    }

    /**
     * Whether {@code candidate} names this variant (case-insensitive, aliases included).
     *
     * @param candidate a name as the user typed it
     * @return true when it equals the name or an alias, ignoring case
     */
    public boolean answersTo(String candidate) {
        String c = candidate.toLowerCase(Locale.ROOT);
        return name.toLowerCase(Locale.ROOT).equals(c)
                || aliases.stream().anyMatch(a -> a.toLowerCase(Locale.ROOT).equals(c));
    }

    /**
     * Total size of its files in bytes.
     *
     * @return the sum of the files' sizes; files of unknown size count 0
     */
    public long bytes() {
        return files.stream().mapToLong(ModelFile::bytes).sum();
    }
}
