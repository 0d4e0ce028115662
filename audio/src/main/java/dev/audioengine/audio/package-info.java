/**
 * Audio input and output: {@link dev.audioengine.audio.AudioStream} decodes files, pipes or standard input to mono
 * blocks at a target sample rate in bounded memory; WAV is decoded in pure Java, other formats through libsndfile and
 * what it refuses (WebM, MP4/M4A, Matroska, ...) through FFmpeg; resampling is a streaming polyphase filter, and a
 * pure-Java FLAC encoder writes synthesized speech.
 */
package dev.audioengine.audio;
