package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.model.FamilyRegistry;
import dev.audioengine.model.Task;
import dev.audioengine.server.serving.ServedModels;
import dev.audioengine.server.serving.ServedSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --models} takes Whisper's named variants (fetched from the Hugging Face hub when first loaded, as any named
 * model is pulled), in both layouts; a NAME=PATH entry may not take one of their names.
 */
class ServedWhisperNamesTest {
    @Test
    void whisperVariantsAreServedByName(@TempDir Path dir) throws Exception {
        FamilyRegistry registry = FamilyRegistry.load();
        List<ServedSource> sources =
                ServedModels.resolve(registry, List.of("ggml-base-q5_1", "whisper-large-v3-turbo"));
        assertThat(sources).extracting(ServedSource::id).containsExactly("ggml-base-q5_1", "whisper-large-v3-turbo");
        assertThat(sources).allMatch(s -> s.family().name().equals("whisper") && s.task() == Task.ASR);
        Path file = Files.writeString(dir.resolve("ggml-base.bin"), "x");
        assertThatThrownBy(() -> ServedModels.resolve(registry, List.of("whisper-base=" + file)))
                .hasMessageContaining("whisper-base is the name of an installed model");
    }
}
