package dev.audioengine.model.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.audioengine.model.ModelFile;
import dev.audioengine.model.ModelSource;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Downloads over HTTP from a server this test starts on the loopback address: resume after a broken transfer, a server
 * that ignores ranges, a wrong file, a missing file. (The store speaks https to the world; plain http is accepted for
 * loopback only, which is what lets this test run without certificates.)
 */
class HttpsDownloadTest {
    static final byte[] BODY = new byte[3_000_001];

    static {
        new Random(7).nextBytes(BODY);
    }

    HttpServer server;
    final List<String> ranges = new CopyOnWriteArrayList<>();
    /** Bytes the next plain request sends before the server drops the connection; -1 sends everything. */
    final AtomicInteger cutAfter = new AtomicInteger(-1);

    volatile boolean honourRanges = true;
    volatile byte[] served = BODY;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/model.bin", this::serve);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void serve(HttpExchange ex) throws IOException {
        String range = ex.getRequestHeaders().getFirst("Range");
        ranges.add(range == null ? "none" : range);
        byte[] body = served;
        int from = 0;
        if (range != null && honourRanges) {
            from = Integer.parseInt(range.replaceAll("bytes=(\\d+)-", "$1"));
            if (from >= body.length) {
                ex.sendResponseHeaders(416, -1);
                ex.close();
                return;
            }
            ex.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + (body.length - 1) + "/" + body.length);
            ex.sendResponseHeaders(206, body.length - from);
        } else {
            ex.sendResponseHeaders(200, body.length);
        }
        int cut = cutAfter.getAndSet(-1);
        try (OutputStream out = ex.getResponseBody()) {
            int end = cut < 0 ? body.length : Math.min(body.length, from + cut);
            out.write(body, from, end - from);
            out.flush();
            if (cut >= 0) {
                ex.getHttpContext().getServer().stop(0); // drop the connection mid-body, as a failing network would
                return;
            }
        }
    }

    private ModelFile file() {
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/model.bin");
        return new ModelFile(
                "model.bin", ModelStoreTest.sha256(BODY), BODY.length, List.of(new ModelSource.Https(url)));
    }

    @Test
    void aDownloadThatBrokeOffResumesWhereItStopped(@TempDir Path dir) throws Exception {
        ModelFile f = file();
        int port = server.getAddress().getPort();
        ModelStore store = new ModelStore(dir);
        cutAfter.set(1_000_000);
        assertThatThrownBy(() -> store.pull(f, PullListener.SILENT)).hasMessageContaining("pull again to resume");
        assertThat(Files.exists(store.path(f))).isFalse();
        Path part = dir.resolve(".partial").resolve(f.sha256() + ".part");
        assertThat(part).exists();
        long kept = Files.size(part);
        assertThat(kept).isGreaterThan(0).isLessThan(BODY.length);

        server = HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0); // the network is back
        server.createContext("/model.bin", this::serve);
        server.start();
        List<String> log = new java.util.ArrayList<>();
        Path p = store.pull(f, log::add);
        assertThat(Files.readAllBytes(p)).isEqualTo(BODY);
        assertThat(ranges.getLast()).isEqualTo("bytes=" + kept + "-");
        assertThat(log).anyMatch(m -> m.contains("resuming at " + kept));
        assertThat(part).doesNotExist();
    }

    @Test
    void aServerThatIgnoresTheRangeSendsTheWholeFileAndThatIsUsedFromTheStart(@TempDir Path dir) throws IOException {
        ModelFile f = file();
        ModelStore store = new ModelStore(dir);
        Path part = Files.createDirectories(dir.resolve(".partial")).resolve(f.sha256() + ".part");
        Files.write(part, new byte[12345]); // stale bytes a resume would wrongly keep
        honourRanges = false;
        Path p = store.pull(f, PullListener.SILENT);
        assertThat(Files.readAllBytes(p)).isEqualTo(BODY);
        assertThat(ranges).containsExactly("bytes=12345-");
    }

    @Test
    void aWrongFileIsNotCachedAndItsPartialIsNotResumed(@TempDir Path dir) throws IOException {
        ModelFile f = file();
        served = "something else".getBytes();
        ModelStore store = new ModelStore(dir);
        assertThatThrownBy(() -> store.pull(f, PullListener.SILENT)).hasMessageContaining("expected " + f.sha256());
        assertThat(Files.exists(store.path(f))).isFalse();
        assertThat(dir.resolve(".partial").resolve(f.sha256() + ".part")).doesNotExist();
    }

    @Test
    void aMissingFileSaysWhatTheServerAnswered(@TempDir Path dir) {
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/gone.bin");
        ModelFile f = new ModelFile("gone.bin", ModelStoreTest.sha256(BODY), 0, List.of(new ModelSource.Https(url)));
        assertThatThrownBy(() -> new ModelStore(dir).pull(f, PullListener.SILENT))
                .hasMessageContaining("HTTP 404")
                .hasMessageContaining(url.toString());
    }

    @Test
    void onlyLoopbackMayUsePlainHttp() {
        assertThatThrownBy(() -> new ModelSource.Https(URI.create("http://example.org/x")))
                .hasMessageContaining("use https");
        new ModelSource.Https(URI.create("https://example.org/x"));
    }
}
