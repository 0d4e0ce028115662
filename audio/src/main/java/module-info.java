/**
 * Audio codecs: files and streams decoded (WAV in pure Java, the other formats through libsndfile and then FFmpeg,
 * both over FFM and optional), mixed to mono and resampled in a stream; FLAC encoded in pure Java. Needs native access
 * for libsndfile and FFmpeg.
 */
module dev.audioengine.audio {
    // NativeLibrary: how vendor libraries are found and reported when missing
    requires dev.audioengine.api;
    // the resampler's inner product uses the Vector API when the module is resolved (the CPU backend requires it)
    requires static jdk.incubator.vector;

    exports dev.audioengine.audio;
}
