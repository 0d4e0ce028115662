package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.audioengine.server.http.Routes;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What browsers and phones upload: a WebM/Opus (MediaRecorder's format) and an M4A (AAC in MP4, a phone's voice memo)
 * of the reference recording, made by Debian's ffmpeg, transcribed like the WAV; and the 400 for what no decoder
 * reads names what is accepted. Skipped where the ffmpeg command is missing (its package brings the libraries the
 * server loads; CI installs both: scripts/test-packages).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class UploadFormatsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static TestServer server;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(ffmpeg("-version"), "the ffmpeg command is not installed: apt-get install ffmpeg");
        server = TestServer.start(c -> c);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        if (http != null) http.close();
        if (server != null) server.close();
    }

    static boolean ffmpeg(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (java.io.IOException missing) {
            return false;
        }
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private static HttpResponse<String> transcribe(String name, byte[] bytes) throws Exception {
        return http.send(
                new Multipart()
                        .field("model", "moonshine-tiny")
                        .file("file", name, bytes)
                        .post(server.uri(Routes.TRANSCRIPTIONS))
                        .timeout(Duration.ofSeconds(120))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aWebmFromABrowserAndAnM4aFromAPhoneAreTranscribed() throws Exception {
        Path webm = dir.resolve("recording.webm"), m4a = dir.resolve("memo.m4a");
        String wav = TestServer.RECORDING.toString();
        assertThat(ffmpeg("-i", wav, "-c:a", "libopus", "-b:a", "32k", webm.toString()))
                .isTrue();
        assertThat(ffmpeg("-i", wav, "-c:a", "aac", "-b:a", "64k", m4a.toString()))
                .isTrue();
        for (Path f : List.of(webm, m4a)) {
            HttpResponse<String> r = transcribe(f.getFileName().toString(), Files.readAllBytes(f));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).get("text").asText())
                    .as(f.toString())
                    .isEqualTo(TestServer.EXPECTED);
        }
    }

    @Test
    void whatNoDecoderReadsIsA400NamingWhatIsAccepted() throws Exception {
        byte[] text =
                "minutes of the meeting, not a recording of it\n".repeat(50).getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> r = transcribe("minutes.txt", text);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode e = JSON.readTree(r.body()).get("error");
        assertThat(e.get("code").asText()).isEqualTo("invalid_audio");
        assertThat(e.get("message").asText())
                .startsWith("minutes.txt: ")
                .contains("FFmpeg does not read it either")
                .contains("Readable here: WAV; FLAC, Ogg Vorbis and Opus, MP3")
                .contains("WebM, Matroska (MKV), MP4/M4A/MOV, AAC, AMR, WMA")
                .doesNotContain("audioengine-server-"); // the client's name for the file, never the spooled path
    }
}
