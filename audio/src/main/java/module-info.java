/** Audio I/O: WAV reading and resampling. */
module dev.audioengine.audio {
    exports dev.audioengine.audio;
}
