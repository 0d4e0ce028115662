package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.model.ModelLoader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A server that cannot listen says why in one line, and nothing logs a stack trace on the way. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StartupTest {
    private final ConcurrentLinkedQueue<LogRecord> records = new ConcurrentLinkedQueue<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private AudioEngine engine;

    @BeforeEach
    void setUp() {
        Logger.getLogger("").addHandler(capture);
        engine = AudioEngine.builder().backend("cpu").build();
    }

    @AfterEach
    void tearDown() {
        Logger.getLogger("").removeHandler(capture);
        engine.close();
    }

    private IOException startFails(String host, int port) {
        ServerConfig c = ServerConfig.defaults(line -> System.err.println("[server] " + line))
                .withModels(List.of("silero_vad"))
                .withHost(host)
                .withPort(port);
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() ->
                SpeechServer.start(c, engine, ModelLoader.standard(m -> {})).close());
        assertThat(t).isInstanceOf(IOException.class);
        assertThat(records)
                .as("log records with a stack trace")
                .noneMatch(r -> r.getThrown() != null && r.getLevel().intValue() >= Level.WARNING.intValue());
        return (IOException) t;
    }

    @Test
    void aPortInUseIsOneClearLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            IOException e = startFails("127.0.0.1", taken.getLocalPort());
            assertThat(e.getMessage())
                    .contains("127.0.0.1:" + taken.getLocalPort())
                    .contains("in use")
                    .contains("--port")
                    .doesNotContain("\n");
        }
    }

    @Test
    void anAddressThatIsNotThisMachinesIsOneClearLine() {
        IOException e = startFails("192.0.2.1", 0); // TEST-NET-1: documentation only, never a host's
        assertThat(e.getMessage())
                .contains("192.0.2.1")
                .contains("not an address of this machine")
                .contains("--host")
                .doesNotContain("\n");
        assertThatThrownBy(() -> {
                    throw startFails("no-such-host.invalid", 0);
                })
                .hasMessageContaining("no-such-host.invalid")
                .hasMessageContaining("--host");
    }
}
