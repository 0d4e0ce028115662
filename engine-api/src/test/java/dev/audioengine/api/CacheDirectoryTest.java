package dev.audioengine.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cache folder follows the environment variables, never Java's user.home (issue 16, defect 13). */
class CacheDirectoryTest {
    @Test
    void homeFromTheEnvironmentWinsOverTheAccountsHome() {
        assertThat(CacheDirectory.resolve(Map.of("HOME", "/tmp/h"))).isEqualTo(Path.of("/tmp/h/.cache/audioengine"));
        assertThat(System.getProperty("user.home"))
                .as("the test means something only if user.home differs")
                .isNotEqualTo("/tmp/h");
    }

    @Test
    void xdgCacheHomeComesBeforeHomeAndTheEngineVariableBeforeBoth() {
        assertThat(CacheDirectory.resolve(Map.of("HOME", "/tmp/h", "XDG_CACHE_HOME", "/tmp/x")))
                .isEqualTo(Path.of("/tmp/x/audioengine"));
        assertThat(CacheDirectory.resolve(
                        Map.of("HOME", "/tmp/h", "XDG_CACHE_HOME", "/tmp/x", "AUDIOENGINE_CACHE", "/tmp/a")))
                .isEqualTo(Path.of("/tmp/a"));
    }

    @Test
    void aRelativeOrBlankXdgCacheHomeIsIgnoredAsTheXdgRuleSays() {
        assertThat(CacheDirectory.resolve(Map.of("HOME", "/tmp/h", "XDG_CACHE_HOME", "rel/dir")))
                .isEqualTo(Path.of("/tmp/h/.cache/audioengine"));
        assertThat(CacheDirectory.resolve(Map.of("HOME", "/tmp/h", "XDG_CACHE_HOME", " ")))
                .isEqualTo(Path.of("/tmp/h/.cache/audioengine"));
    }

    @Test
    void withNeitherVariableTheMessageSaysWhatToSet() {
        assertThatThrownBy(() -> CacheDirectory.resolve(Map.of()))
                .hasMessageContaining("XDG_CACHE_HOME")
                .hasMessageContaining("HOME");
    }
}
