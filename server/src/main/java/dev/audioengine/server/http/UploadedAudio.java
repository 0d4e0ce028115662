package dev.audioengine.server.http;

import dev.audioengine.audio.AudioFormatException;
import dev.audioengine.audio.AudioStream;
import java.io.IOException;
import java.util.Optional;

/**
 * The audio of an upload: the spooled file opened by the audio module (every format it reads, recognised by content),
 * with its problems told as 400s in the client's own terms (its file name, never the server's path).
 */
public final class UploadedAudio {
    private UploadedAudio() {}

    /** The form's {@code file} part, required. */
    public static Upload required(Optional<Upload> file) {
        Upload u = file.orElseThrow(
                () -> ApiError.invalid("file", "you must provide a file (a multipart part named file)"));
        if (u.bytes() == 0) throw ApiError.invalid("file", "invalid_audio", u.filename() + " is empty");
        return u;
    }

    /** Opens the upload's header now, so a file that is not audio is refused before it waits for a model. */
    public static AudioStream open(Upload u) throws IOException {
        try {
            return AudioStream.open(u.path());
        } catch (AudioFormatException e) {
            throw invalid(u, e);
        }
    }

    /** A problem with the audio met while decoding it (a NaN sample, a broken frame): the request's, not the server's. */
    public static ApiError invalid(Upload u, AudioFormatException e) {
        return ApiError.invalid("file", "invalid_audio", u.clientView(e.getMessage()));
    }
}
