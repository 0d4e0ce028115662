package dev.audioengine.server;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** multipart/form-data bodies for tests that need to shape a request by hand (the SDK only sends well-formed ones). */
final class Multipart {
    static final String BOUNDARY = "audioengine-test-boundary-7f3a";
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    Multipart field(String name, String value) {
        part("Content-Disposition: form-data; name=\"" + name + "\"\r\n", value.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    Multipart file(String name, String filename, byte[] content) {
        part(
                "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename
                        + "\"\r\nContent-Type: application/octet-stream\r\n",
                content);
        return this;
    }

    Multipart file(Path audio) throws java.io.IOException {
        return file("file", audio.getFileName().toString(), Files.readAllBytes(audio));
    }

    private void part(String headers, byte[] content) {
        body.writeBytes(("--" + BOUNDARY + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(content);
        body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** The whole body, closing boundary included. */
    byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(body.toByteArray());
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    /** The part written so far, with no closing boundary: a body cut off mid-upload. */
    byte[] unfinished() {
        return body.toByteArray();
    }

    static String contentType() {
        return "multipart/form-data; boundary=" + BOUNDARY;
    }

    HttpRequest.Builder post(URI uri) {
        return HttpRequest.newBuilder(uri)
                .header("Content-Type", contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes()));
    }
}
