package dev.audioengine.server.http;

import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import io.helidon.http.RequestException;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.fileupload2.core.AbstractFileUpload;
import org.apache.commons.fileupload2.core.AbstractRequestContext;
import org.apache.commons.fileupload2.core.DiskFileItem;
import org.apache.commons.fileupload2.core.DiskFileItemFactory;
import org.apache.commons.fileupload2.core.FileItemInput;
import org.apache.commons.fileupload2.core.FileItemInputIterator;
import org.apache.commons.fileupload2.core.FileUploadContentTypeException;
import org.apache.commons.fileupload2.core.FileUploadFileCountLimitException;
import org.apache.commons.fileupload2.core.FileUploadSizeException;
import org.apache.commons.fileupload2.core.RequestContext;

/**
 * A multipart/form-data body (RFC 7578, as OpenAI's audio endpoints take it), parsed as a stream by Commons FileUpload:
 * text fields are kept (each at most {@link #MAX_FIELD_BYTES}), file parts are spooled into the {@link UploadFolder} as
 * they arrive, so memory does not grow with the upload. The whole body may not exceed the server's upload limit: a
 * declared Content-Length over it is refused before a byte is read, a chunked body as soon as it passes the limit.
 * Closing deletes the spooled files.
 */
public final class MultipartForm implements AutoCloseable {
    static final int MAX_FIELD_BYTES = 64 << 10;
    private static final int MAX_PARTS = 64;

    private final Map<String, List<String>> fields = new LinkedHashMap<>();
    private final Map<String, Upload> files = new LinkedHashMap<>();

    private MultipartForm() {}

    /**
     * Reads the body of {@code req}; {@code fileFields} are the parts taken as files (one each), every other part is a
     * text field. Problems of the request are {@link ApiError}s (400, 413).
     */
    public static MultipartForm read(
            ServerRequest req,
            ServerResponse res,
            UploadFolder folder,
            long maxBytes,
            Set<String> fileFields,
            UploadWatchdog watchdog)
            throws IOException {
        String contentType = req.headers().first(HeaderNames.CONTENT_TYPE).orElse(null);
        long declared = req.headers().contentLength().orElse(-1);
        if (declared > maxBytes) throw tooLarge(declared, maxBytes);
        if (contentType == null
                || !contentType.strip().toLowerCase(java.util.Locale.ROOT).startsWith("multipart/")) {
            // FileUpload would fail on a missing type with a null pointer of its own
            throw ApiError.invalid(
                    null,
                    "expected a multipart/form-data body (Content-Type: multipart/form-data; boundary=...), got "
                            + (contentType == null ? "no Content-Type" : "Content-Type " + contentType)
                            + " (with curl: -F file=@audio.wav -F model=...)");
        }
        MultipartForm form = new MultipartForm();
        try (UploadWatchdog.Watch watch = watchdog.watch(ErrorResponder.stalled(res, watchdog))) {
            Body body = new Body(req, contentType, declared, watch);
            try {
                Parser parser = new Parser();
                parser.setSizeMax(maxBytes);
                parser.setFileCountMax(MAX_PARTS);
                FileItemInputIterator parts = parser.getItemIterator(body);
                if (!parts.hasNext()) {
                    // FileUpload reads a body without its boundary as an empty form, which would be refused for its
                    // first missing field
                    throw ApiError.invalid(
                            null,
                            "the multipart body has no part: the boundary " + boundary(contentType)
                                    + " its Content-Type names is not found in the body");
                }
                while (parts.hasNext()) {
                    FileItemInput part = parts.next();
                    String name = part.getFieldName();
                    if (name == null)
                        throw ApiError.invalid(
                                null, "a multipart part has no name (Content-Disposition: form-data; name=...)");
                    if (fileFields.contains(name)) form.spool(name, part, folder);
                    else
                        form.fields
                                .computeIfAbsent(name, k -> new ArrayList<>())
                                .add(text(name, part));
                }
                if (watch.fired()) throw new IOException("answered 408 just as the last byte came");
                return form;
            } catch (IOException | RuntimeException e) {
                form.close();
                RuntimeException r = refusal(e, watch.fired(), watchdog, contentType, maxBytes);
                // refused partway through the body: the rest is read after the answer, so a client still sending gets
                // it
                if (r instanceof ApiError && body.raw != null) ErrorResponder.abandoned(req, body.raw);
                throw r;
            }
        }
    }

    /** The boundary parameter of a multipart Content-Type, as the request gave it; "(none)" when it has none. */
    private static String boundary(String contentType) {
        for (String param : contentType.split(";")) {
            String p = param.strip();
            if (p.regionMatches(true, 0, "boundary=", 0, 9)) return p.substring(9);
        }
        return "(none)";
    }

    /** What a failure while reading means for the request: its fault (400, 413), the connection's, or the server's. */
    private static RuntimeException refusal(
            Exception e, boolean stalled, UploadWatchdog watchdog, String contentType, long maxBytes) {
        if (stalled)
            return new Stalled(
                    "the upload stalled: no data for " + watchdog.stall().toMillis() + " ms", e);
        return switch (e) {
            case ApiError a -> a;
            case DiskError d -> d;
            case CloseConnectionException c -> c;
            case FileUploadFileCountLimitException x ->
                ApiError.invalid(null, "more than " + MAX_PARTS + " parts in the form");
            case FileUploadSizeException x -> tooLarge(x.getActualSize(), maxBytes);
            case FileUploadContentTypeException x ->
                ApiError.invalid(null, "expected a multipart/form-data body, got Content-Type " + contentType);
            // Helidon's own framing limits, met while FileUpload reads
            case RequestException x when x.status().code() == 413 -> tooLarge(-1, maxBytes);
            case RequestException x -> ApiError.invalid(null, "the request body could not be read: " + x.getMessage());
            default ->
                connectionFailed(e)
                        ? new CloseConnectionException(
                                "the client closed the connection mid-upload"
                                        + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"),
                                e)
                        // anything else that breaks while reading is the body's: malformed, or not what its headers say
                        : ApiError.invalid(null, "the multipart body could not be read: " + e.getMessage());
        };
    }

    /** Whether reading failed because the connection did (reset, closed), wherever in the parser it surfaced. */
    private static boolean connectionFailed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketException
                    || t instanceof DataReader.InsufficientDataAvailableException
                    || t instanceof CloseConnectionException) return true;
        }
        return false;
    }

    /** The one value of a text field; given twice is an error. */
    public Optional<String> field(String name) {
        List<String> v = fields.get(name);
        if (v == null) return Optional.empty();
        if (v.size() > 1) throw ApiError.invalid(name, name + " is given " + v.size() + " times");
        return Optional.of(v.getFirst());
    }

    /** Every value of a repeated field ({@code timestamp_granularities[]}). */
    public List<String> fields(String name) {
        return fields.getOrDefault(name, List.of());
    }

    /** The text fields' names, in order. */
    public Set<String> fieldNames() {
        return fields.keySet();
    }

    public Optional<Upload> file(String name) {
        return Optional.ofNullable(files.get(name));
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (Upload u : files.values()) {
            try {
                u.close();
            } catch (IOException e) {
                if (first == null) first = e;
            }
        }
        files.clear();
        if (first != null) throw first;
    }

    private void spool(String name, FileItemInput part, UploadFolder folder) throws IOException {
        if (files.containsKey(name)) throw ApiError.invalid(name, "more than one " + name + " part");
        var path = folder.newFile();
        String filename = part.getName() == null || part.getName().isBlank() ? name : part.getName();
        Upload upload = new Upload(path, filename, 0);
        files.put(name, upload); // from here on close() deletes it, whatever happens below
        long bytes = 0;
        byte[] buffer = new byte[64 << 10];
        try (InputStream in = part.getInputStream();
                OutputStream out = Files.newOutputStream(path)) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                try {
                    out.write(buffer, 0, n);
                } catch (IOException e) {
                    throw new DiskError("could not spool the upload: " + e.getMessage(), e);
                }
                bytes += n;
            }
        }
        files.put(name, new Upload(path, filename, bytes));
    }

    private static String text(String name, FileItemInput part) throws IOException {
        try (InputStream in = part.getInputStream()) {
            byte[] b = in.readNBytes(MAX_FIELD_BYTES + 1);
            if (b.length > MAX_FIELD_BYTES)
                throw ApiError.invalid(name, name + " is longer than " + MAX_FIELD_BYTES + " bytes");
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    private static ApiError tooLarge(long bytes, long max) {
        String size = bytes >= 0 ? bytes + " bytes" : "larger";
        return ApiError.tooLarge("the request body is " + size + "; this server takes at most " + max + " bytes ("
                + (max >> 20) + " MiB, --max-upload-mb)");
    }

    /** Writing the spooled copy failed: the server's disk, not the request (500). */
    static final class DiskError extends UncheckedIOException {
        DiskError(String message, IOException cause) {
            super(message, cause);
        }
    }

    /** The watchdog ended an upload that stopped sending: logged and counted as 408. */
    static final class Stalled extends CloseConnectionException {
        Stalled(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The request as FileUpload reads it; the body stream is asked for only once the size check has passed, and each
     * read it makes tells the watchdog the upload moves.
     */
    private static final class Body extends AbstractRequestContext<ServerRequest> {
        private final String contentType;
        private final long contentLength;
        private final UploadWatchdog.Watch watch;
        private InputStream raw; // Helidon's stream, once FileUpload has asked for it

        Body(ServerRequest req, String contentType, long contentLength, UploadWatchdog.Watch watch) {
            super(name -> req.headers().first(HeaderNames.create(name)).orElse(null), () -> contentLength, req);
            this.contentType = contentType;
            this.contentLength = contentLength;
            this.watch = watch;
        }

        @Override
        public String getCharacterEncoding() {
            return null;
        }

        @Override
        public String getContentType() {
            return contentType;
        }

        @Override
        public long getContentLength() {
            return contentLength;
        }

        @Override
        public InputStream getInputStream() {
            raw = getRequest().content().inputStream();
            return watch.watched(raw);
        }
    }

    /** FileUpload's streaming parser over any {@link RequestContext}; its list-building forms are not used. */
    private static final class Parser extends AbstractFileUpload<RequestContext, DiskFileItem, DiskFileItemFactory> {
        @Override
        public FileItemInputIterator getItemIterator(RequestContext request) throws IOException {
            return super.getItemIterator(request);
        }

        @Override
        public Map<String, List<DiskFileItem>> parseParameterMap(RequestContext request) {
            throw new UnsupportedOperationException("the server streams parts; it never builds the parameter map");
        }

        @Override
        public List<DiskFileItem> parseRequest(RequestContext request) {
            throw new UnsupportedOperationException("the server streams parts; it never builds the item list");
        }
    }
}
